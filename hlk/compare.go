package hlk

// CallDiff is one Barrier call whose packets or cost differ between two
// runs of a case (a translator's and the reference's): the list, the
// call's ordinal, each run's packets (as the disassembly prints them) and
// the command processor's cycles they cost, summed over the list's
// executions.
type CallDiff struct {
	List                string
	Call                int
	Packets, RefPackets []string
	Cycles, RefCycles   uint64
}

// CompareCalls lists the Barrier calls whose packets or cost differ
// between got and ref, two runs of one case on one profile, list by list
// and call by call; calls is how many were compared.
func CompareCalls(got, ref Result) (diffs []CallDiff, calls int) {
	refLists := map[string]*ListDump{}
	for i := range ref.Lists {
		refLists[ref.Lists[i].Name] = &ref.Lists[i]
	}
	for i := range got.Lists {
		l := &got.Lists[i]
		r := refLists[l.Name]
		mine := callPackets(l)
		var theirs map[int][]string
		if r != nil {
			theirs = callPackets(r)
		}
		for _, c := range l.Calls {
			if c.Ordinal == 0 {
				continue
			}
			calls++
			d := CallDiff{List: l.Name, Call: c.Ordinal, Packets: mine[c.Ordinal], RefPackets: theirs[c.Ordinal],
				Cycles: l.CommandCycles(c.Ordinal)}
			if r != nil {
				d.RefCycles = r.CommandCycles(c.Ordinal)
			}
			if d.Cycles != d.RefCycles || !equalLines(d.Packets, d.RefPackets) {
				diffs = append(diffs, d)
			}
		}
	}
	return diffs, calls
}

// callPackets is each command's packets by its ordinal: the lines after
// its MARKER up to the next.
func callPackets(l *ListDump) map[int][]string {
	out := map[int][]string{}
	current := 0
	for _, line := range l.Lines {
		if line.Depth > 0 {
			continue
		}
		if t := l.CommandAt(line.Offset); t != 0 {
			current = t
			continue
		}
		if current != 0 {
			out[current] = append(out[current], line.Op+" "+line.Text)
		}
	}
	return out
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
