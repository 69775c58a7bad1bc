package gen

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ebref/ebref/ddi"
)

// Random validation programs (suite "random-validation"): a random
// program (random.go) with one invalid barrier put into one of its
// lists, as a call of its own or among the valid barriers of one of its
// calls, on a resource of its own. The invalid barrier is a refused cell
// of one of ddi's rule tables (the five rules.go walks: layout and
// access, access and sync, and the queue types' layouts, accesses and
// syncs), built as rules.go builds the cell's case so that it breaks
// that rule alone; the message it must draw, its ID and the member it
// names, comes from the table, not from the driver. The program is cut
// after the ExecuteCommandLists that holds the list: a list whose
// recording failed is not submitted, nor is anything else of that call
// (000 "Barrier API Call Validation"; umd.Queue.ExecuteCommandLists), so
// a later submission would find layouts the refused one never set. The
// case expects that one message, once, in that list, and no other error.

// refusedCell is one refused cell of a rule table as a barrier on VX.
type refusedCell struct {
	table   string
	title   string
	decl    string // VX's declaration ("" for a global barrier)
	q       ddi.CommandListType
	barrier string // the barrier's form, without the leading "barrier"
	expect  string // "ID field F"
}

var expectRe = regexp.MustCompile(`^expect error (\S+) in L field (\S+)$`)

// refusedCells are the rule tables' refused cells, from the generated
// rule suites' own construction (rules.go): each case there declares
// T, records one barrier in list L and, when the table refuses the cell,
// expects the rule's message. Made on first use: every ebref command,
// `ebref translator serve` among them, would otherwise generate five rule
// suites as it starts.
var refusedCells = sync.OnceValue(func() []refusedCell {
	var out []refusedCell
	for _, g := range []struct {
		table string
		gen   func() map[string]string
	}{{"layout-access", genLayoutAccess}, {"access-sync", genAccessSync}, {"queue-layouts", genQueueLayouts},
		{"queue-accesses", genQueueAccesses}, {"queue-syncs", genQueueSyncs}} {
		for _, text := range g.gen() {
			for _, sec := range strings.Split(text, "\nscenario ")[1:] {
				lines := strings.Split(strings.TrimSpace(sec), "\n")
				c := refusedCell{table: g.table, title: strings.Trim(lines[0], `"`)}
				ok := false
				for _, l := range lines[1:] {
					switch {
					case strings.HasPrefix(l, "texture T ") || strings.HasPrefix(l, "buffer T "):
						c.decl = strings.Replace(l, " T ", " VX ", 1)
					case strings.HasPrefix(l, "list L "):
						t, err := parseListType(strings.TrimPrefix(l, "list L "))
						if err != nil {
							panic(err) // rules.go writes the names it parses
						}
						c.q = t
					case strings.HasPrefix(l, "  barrier "):
						c.barrier = strings.Replace(strings.TrimPrefix(l, "  barrier "), " T ", " VX ", 1)
					case expectRe.MatchString(l):
						m := expectRe.FindStringSubmatch(l)
						c.expect, ok = m[1]+" field "+m[2], true
					}
				}
				if ok {
					out = append(out, c)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b refusedCell) int { return strings.Compare(a.table+a.title, b.table+b.title) })
	return out
})

func parseListType(s string) (ddi.CommandListType, error) {
	for _, t := range []ddi.CommandListType{ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy,
		ddi.CommandListTypeVideoDecode, ddi.CommandListTypeVideoProcess, ddi.CommandListTypeVideoEncode} {
		if t.String() == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("hlk: no list type is %q", s)
}

// GenerateValidation writes the validation program of a seed: the
// random program of the same seed with one refused cell's barrier, or ""
// when no cell fits a list of it (a cell's queue type is not among its
// lists').
func GenerateValidation(seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 0x76616c6964))
	host := strings.Split(strings.TrimRight(GenerateRandom(seed).Positive, "\n"), "\n")
	// The lists, by their "list" line, and their types.
	type hl struct {
		name  string
		q     ddi.CommandListType
		start int // its "list" line
		end   int // its "end" line
	}
	var lists []hl
	for i, l := range host {
		f := strings.Fields(l)
		if len(f) >= 3 && f[0] == "list" && !strings.HasPrefix(l, " ") {
			t, err := parseListType(f[2])
			if err != nil {
				continue
			}
			e := i + 1
			for host[e] != "end" {
				e++
			}
			lists = append(lists, hl{f[1], t, i, e})
		}
	}
	var cells []refusedCell
	for _, c := range refusedCells() {
		if slices.ContainsFunc(lists, func(l hl) bool { return l.q == c.q }) {
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return ""
	}
	// A table first, each as likely (the layout-access table has most
	// cells), then one of its cells.
	var tables []string
	for _, c := range cells {
		if !slices.Contains(tables, c.table) {
			tables = append(tables, c.table)
		}
	}
	table := tables[rng.IntN(len(tables))]
	cells = slices.DeleteFunc(cells, func(c refusedCell) bool { return c.table != table })
	cell := cells[rng.IntN(len(cells))]
	var fit []hl
	for _, l := range lists {
		if l.q == cell.q {
			fit = append(fit, l)
		}
	}
	l := fit[rng.IntN(len(fit))]
	// Where: among a call's barriers, or a call of its own between two
	// commands.
	var calls, gaps []int
	for i := l.start + 1; i <= l.end; i++ {
		t := strings.TrimSpace(host[i])
		if (t == "call" || t == "call-0088") && strings.HasPrefix(host[i], "  ") {
			calls = append(calls, i)
		}
		if i == l.end || strings.HasPrefix(host[i], "  ") && !strings.HasPrefix(host[i], "    ") && t != "end" {
			gaps = append(gaps, i)
		}
	}
	var body []string
	where := ""
	if len(calls) > 0 && rng.IntN(2) == 0 {
		at := calls[rng.IntN(len(calls))]
		body = slices.Concat(host[:at+1], []string{"    " + cell.barrier}, host[at+1:l.end+1])
		where = fmt.Sprintf("among the barriers of a call of list %s", l.name)
	} else {
		at := gaps[rng.IntN(len(gaps))]
		body = slices.Concat(host[:at], []string{"  barrier " + cell.barrier}, host[at:l.end+1])
		where = fmt.Sprintf("as a call of its own in list %s", l.name)
	}
	// The rest of the program up to the execute that submits the list.
	for _, line := range host[l.end+1:] {
		body = append(body, line)
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "execute" && slices.Contains(f[2:], l.name) {
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# A random validation program (hlk/gen/validation.go), seed %d: the random program of that seed, cut after the\n", seed)
	fmt.Fprintf(&b, "# submission of list %s, with the %s table's refused cell %q %s.\n", l.name, cell.table, cell.title, where)
	fmt.Fprintf(&b, "# Reproduce: ebref hlk --suite random-validation --random %d --seed %d\n", LegacyShare, seed)
	for _, line := range body {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "#") || strings.HasPrefix(t, "expect "):
			continue
		case strings.HasPrefix(line, "buffer UP ") && cell.decl != "":
			b.WriteString(cell.decl + "\n")
		}
		b.WriteString(line + "\n")
	}
	id, field, _ := strings.Cut(cell.expect, " field ")
	fmt.Fprintf(&b, "expect error %s in %s field %s count 1\n", id, l.name, field)
	return b.String()
}
