package hlk

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/debug"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// Status is a case's outcome, as conformance suites grade them. A run is
// conformant when every case is Pass, NotSupported or Skipped.
type Status uint8

// The statuses.
const (
	Pass         Status = iota
	Fail                // an expectation does not hold
	NotSupported        // the profile lacks a feature the case requires
	Skipped             // the case is not for this profile
	Crash               // the driver or the harness panicked
	Timeout             // the case did not finish in time
)

var statusNames = [...]string{"Pass", "Fail", "NotSupported", "Skipped", "Crash", "Timeout"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", s)
}

// ParseStatus is the inverse of String.
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("hlk: no status %q", s)
}

// MarshalText writes the status's name (reports carry names).
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status's name.
func (s *Status) UnmarshalText(b []byte) error {
	v, err := ParseStatus(string(b))
	*s = v
	return err
}

// Conformant reports whether the status keeps a run conformant.
func (s Status) Conformant() bool { return s == Pass || s == NotSupported || s == Skipped }

// Result is what running one case on one profile gave.
type Result struct {
	Status   Status
	Failures []string // why it is not Pass, one line each
	// Notes are what the driver did that is not unsafe but costs or
	// hides (each starts with one of the Note constants): safety decides
	// the Status, these are reported beside it.
	Notes        []string
	Expectations []ExpectResult // each expectation, in file order
	Observed     []Observed     // every validation message and run error
	Hazards      []hwmodel.Hazard
	Faults       []hwmodel.Fault
	Counters     hwmodel.Counters // summed over the engines
	Engines      []EngineCost     // each engine that ran a submission, in creation order
	Lists        []ListDump       // each list's packets, for `ebref run`
}

// EngineCost is one engine's counters and timeline.
type EngineCost struct {
	Engine   string
	Counters hwmodel.Counters
	Timeline []hwmodel.Span // the first hwmodel.TimelineLimit spans
	// Samples are the engine's running totals after each packet that
	// changed them (the first hwmodel.TimelineLimit), for counter tracks.
	Samples []CounterSample
}

// CounterSample is an engine's running totals, at the end of a packet, of
// what synchronisation cost it: stall cycles, lines written back by CACHE
// packets, bytes decompressed. The ends of submissions are not packets and
// add nothing here.
type CounterSample struct {
	Time              uint64 // the command processor's time once the packet is done, in cycles
	StallCycles       uint64
	FlushedLines      uint64
	DecompressedBytes uint64
}

// ExpectResult is one expectation's outcome.
type ExpectResult struct {
	Pos    scenario.Pos
	Text   string // the expectation, restated
	OK     bool
	Detail string // what was found
}

// Observed is a validation message or an error of the run.
type Observed struct {
	Severity debug.Severity
	ID       debug.MessageID // 0 for an error that is not a validation message
	List     string          // the list it arose in ("" for creation and execution)
	Field    string
	Text     string
	Pos      scenario.Pos // the statement that caused it
	expected bool
}

// where is " at FILE:LINE:COL" for an observation tied to a statement.
func (o *Observed) where() string {
	if o.Pos.File == "" {
		return ""
	}
	return " at " + o.Pos.String()
}

// ListDump is one recorded list: its disassembly and its barrier calls.
type ListDump struct {
	Name    string
	Type    ddi.CommandListType
	Lines   []cmdbuf.Line
	Calls   []BarrierCall // the barrier calls, in order
	Records []driver.BarrierRecord
	// Costs are what each command's packets cost the GPU, summed over every
	// execution of the list, by the command's ordinal (its MARKER's tag:
	// "Barrier #2" is 2); Cycles is the CP's time (hwmodel.PacketCost).
	Costs map[int]hwmodel.Counters
	// Background is, by ordinal likewise, the background work the
	// command's packets started: a split begin's asynchronous cache and
	// compression operations on the BLIT stage, the cycles each waited
	// for its drain and ran. The begin carries that work (CommandCycles),
	// although it runs beside the CP.
	Background map[int]uint64
	// BarrierCycles is what the list's barrier calls cost, their CP time
	// and the background work they started, found by each call's record
	// (its dword range, driver.BarrierRecord) rather than by MARKER: the
	// frame's barrier cost, which the calls' CommandCycles add up to.
	BarrierCycles uint64
	// markers are the list's MARKERs: dword offset and tag, in order.
	markers []markerAt
}

// BarrierCall is one barrier call of a list: its ordinal among the list's
// commands (as its MARKER and its messages number it; 0 when the call
// recorded no packets), and each barrier as it prints, with its resource's
// handle (Barriers) and with the name the scenario gave the resource
// (Named; the handle still where the scenario named none, a raw handle).
type BarrierCall struct {
	Ordinal  int
	Barriers []string
	Named    []string
}

type markerAt struct{ offset, tag int }

// CommandCycles is what command n of the list cost over every execution
// of the list: its packets' time on the command processor (stalls
// included) and the background work they started, which a split barrier's
// begin carries although it runs beside the CP.
func (d *ListDump) CommandCycles(n int) uint64 { return d.Costs[n].Cycles + d.Background[n] }

// CommandOf is the ordinal of the command whose packets hold the dword
// at offset: the last MARKER at or before it (0 before the first).
func (d *ListDump) CommandOf(offset int) int {
	i, ok := slices.BinarySearchFunc(d.markers, offset, func(m markerAt, off int) int { return cmp.Compare(m.offset, off) })
	if !ok {
		i--
	}
	if i < 0 {
		return 0
	}
	return d.markers[i].tag
}

// CommandAt is the ordinal of the command whose MARKER is at a dword
// offset of the list, 0 if no MARKER is there.
func (d *ListDump) CommandAt(offset int) int {
	i, ok := slices.BinarySearchFunc(d.markers, offset, func(m markerAt, off int) int { return cmp.Compare(m.offset, off) })
	if !ok {
		return 0
	}
	return d.markers[i].tag
}

// exec is one case running.
type exec struct {
	xfail *translator.Error // the translator's first failure, if any

	sc     *scenario.Scenario
	dev    Device
	heaps  map[string]ddi.HHeap
	qheaps map[string]ddi.HQueryHeap
	res    map[string]ddi.HResource
	names  map[ddi.HResource]string // the resources' names by handle, the latest for a reused handle
	queues map[string]Queue
	fences map[string]Fence
	lists  map[string]CommandList
	dumps  map[string]*ListDump // by recording (ListStep.Recording)
	last   map[string]*ListDump // each list's latest recording, by name
	gone   map[string]bool      // resources, heaps and lists destroyed
	// queueTypes are the queues' types; leg is the runtime's legacy layer
	// and legLists its view of each list (legacy.go).
	queueTypes map[string]ddi.CommandListType
	leg        *legacy.Tracker
	legLists   map[string]*legacy.List
	res0       Result
	msgs       int // the device messages observed so far
	samples    map[*hwmodel.Engine][]CounterSample

	// touches are the work commands whose WORK packets touch other
	// bytes than the program says (touch.go), one line each.
	touches []string
}

// Run runs a case on a profile with a driver. It does not recover panics:
// the runner does.
func Run(d Driver, sc *scenario.Scenario, p *hwmodel.Profile, fault string) Result {
	return RunContext(context.Background(), d, sc, p, fault)
}

// RunContext is Run that stops once ctx is done: between statements, and
// inside the GPU's run through the device's context.
func RunContext(ctx context.Context, d Driver, sc *scenario.Scenario, p *hwmodel.Profile, fault string) Result {
	if len(sc.Profiles) > 0 && !slices.Contains(sc.Profiles, p.Name) {
		return Result{Status: Skipped, Failures: []string{fmt.Sprintf("the case is for %s only", strings.Join(sc.Profiles, ", "))}}
	}
	for _, f := range sc.Requires {
		if !scenario.Features[f](p) {
			return Result{Status: NotSupported, Failures: []string{fmt.Sprintf("profile %s lacks %s", p.Name, f)}}
		}
	}
	dev, err := d.Open(p, DeviceOptions{Debug: sc.Debug, Fault: fault, Context: ctx})
	if err != nil {
		r := Result{Status: Fail, Failures: []string{fmt.Sprintf("opening the device: %v", err)}}
		// A translator that crashed or timed out as the device asked for
		// its compression policy did not let the case run: as at a call.
		var te *translator.Error
		if errors.As(err, &te) {
			switch te.Kind {
			case translator.ErrCrash:
				r.Status = Crash
			case translator.ErrTimeout:
				r.Status = Timeout
			}
		}
		return r
	}
	x := newExec(sc, dev)
	dev.Machine().OnPacket(x.attribute)
	for _, st := range sc.Steps {
		if err := ctx.Err(); err != nil {
			return Result{Status: Timeout, Failures: []string{fmt.Sprintf("stopped at %s: %v", st.At(), err)}}
		}
		x.step(st)
	}
	if err := dev.WaitIdle(); err != nil {
		if ctx.Err() != nil {
			return Result{Status: Timeout, Failures: []string{fmt.Sprintf("stopped: %v", err)}}
		}
		x.observe(Observed{Severity: debug.SeverityError, Text: fmt.Sprintf("running: %v", err)})
	}
	x.deviceMessages(scenario.Pos{})
	m := dev.Machine()
	x.res0.Hazards = append([]hwmodel.Hazard(nil), m.Hazards()...)
	x.res0.Faults = append([]hwmodel.Fault(nil), m.Faults()...)
	x.res0.Counters = m.Total()
	for _, e := range m.Engines() {
		if c := e.Counters(); c.Submissions > 0 {
			x.res0.Engines = append(x.res0.Engines, EngineCost{e.Name(), c, e.Timeline(), x.samples[e]})
		}
	}
	for _, st := range sc.Steps {
		if ls, ok := st.(*scenario.ListStep); ok {
			x.res0.Lists = append(x.res0.Lists, *x.dumps[ls.Recording])
		}
	}
	x.check()
	// The result holds copies of what it read; the machine's bytes go to
	// the next run's (hwmodel.Machine.Release).
	m.Release()
	return x.res0
}

// newExec is the run of a case on an open device, before its first step.
func newExec(sc *scenario.Scenario, dev Device) *exec {
	return &exec{sc: sc, dev: dev, heaps: map[string]ddi.HHeap{}, qheaps: map[string]ddi.HQueryHeap{}, res: map[string]ddi.HResource{}, names: map[ddi.HResource]string{}, queues: map[string]Queue{},
		fences: map[string]Fence{}, lists: map[string]CommandList{}, dumps: map[string]*ListDump{}, last: map[string]*ListDump{}, gone: map[string]bool{},
		queueTypes: map[string]ddi.CommandListType{}, leg: legacy.NewTracker(), legLists: map[string]*legacy.List{}}
}

func (x *exec) observe(o Observed) { x.res0.Observed = append(x.res0.Observed, o) }

// deviceMessages observes the debug layer's messages not seen yet, as
// caused by the statement at pos.
func (x *exec) deviceMessages(pos scenario.Pos) {
	ms := x.dev.Messages()
	for _, m := range ms[x.msgs:] {
		x.observe(Observed{Severity: m.Severity, ID: m.ID, Field: m.Field, Text: m.Error(), Pos: pos})
	}
	x.msgs = len(ms)
}

// createErr records a creation or run error, as a validation message when
// it is one.
func (x *exec) createErr(pos scenario.Pos, err error) {
	o := Observed{Severity: debug.SeverityError, Text: err.Error(), Pos: pos}
	var m *debug.Message // a creation error is one too (its As method)
	if errors.As(err, &m) {
		o.ID, o.Field = m.ID, m.Field
	}
	x.observe(o)
}

func (x *exec) step(st scenario.Step) {
	switch s := st.(type) {
	case *scenario.HeapStep:
		h, err := x.dev.CreateHeap(s.Kind, s.Size)
		if err != nil {
			x.createErr(s.Pos, err)
		}
		x.heaps[s.Name] = h
	case *scenario.QueryHeapStep:
		h, err := x.dev.CreateQueryHeap(s.Type, s.Count)
		if err != nil {
			x.createErr(s.Pos, err)
		}
		x.qheaps[s.Name] = h
	case *scenario.ResourceStep:
		var h ddi.HResource
		var err error
		desc := s.Desc
		if s.HasState {
			// The legacy path: the runtime creates the resource in the
			// layout its initial state stands for.
			if r, _, ok := legacyResource(desc); ok {
				if desc.InitialBarrierLayout, err = legacy.InitialLayout(r, s.State); err != nil {
					x.createErr(s.Pos, err)
					return
				}
			}
		}
		if s.Heap != "" {
			h, err = x.dev.CreatePlaced(x.heaps[s.Heap], s.Offset, desc, s.Align)
		} else {
			h, err = x.dev.CreateCommitted(desc, s.Kind)
		}
		if err != nil {
			x.createErr(s.Pos, err)
		} else if err := x.dev.SetName(h, s.Name); err != nil {
			x.createErr(s.Pos, err)
		} else {
			x.legacyCreated(s, h)
			x.names[h] = s.Name
		}
		x.res[s.Name] = h
	case *scenario.QueueStep:
		q, err := x.dev.CreateQueue(s.Type)
		if err != nil {
			x.createErr(s.Pos, err)
		}
		x.queues[s.Name] = q
		x.queueTypes[s.Name] = s.Type
	case *scenario.FenceStep:
		x.fences[s.Name] = x.dev.CreateFence()
	case *scenario.ListStep:
		x.record(s)
	case *scenario.ExecuteStep:
		q := x.queues[s.Queue]
		if q == nil {
			return // its creation failed, which was reported
		}
		var lists []CommandList
		var legLists []*legacy.List
		for _, n := range s.Lists {
			if l := x.lists[n]; l != nil {
				lists = append(lists, l)
				legLists = append(legLists, x.legLists[n])
			}
		}
		if err := q.ExecuteCommandLists(lists...); err != nil {
			// A list that failed recording was reported then; anything
			// else is an error of its own.
			var m *debug.Message
			if !errors.As(err, &m) || m.Command == "ExecuteCommandLists" {
				x.createErr(s.Pos, err)
			}
		} else {
			x.legacyObserve(x.leg.Execute(x.queueTypes[s.Queue], legLists...), "", s.Pos)
		}
		x.deviceMessages(s.Pos) // the debug layer's findings about this submission
	case *scenario.FenceOpStep:
		q, f := x.queues[s.Queue], x.fences[s.Fence]
		if q == nil || f == nil {
			return
		}
		var err error
		if s.Wait {
			err = q.Wait(f, s.Value)
		} else {
			err = q.Signal(f, s.Value)
		}
		if err != nil {
			x.createErr(s.Pos, err)
		}
	case *scenario.WriteStep:
		if err := x.dev.WriteBuffer(x.res[s.Resource], s.Offset, s.Bytes()); err != nil {
			x.createErr(s.Pos, err)
		}
	case *scenario.WaitIdleStep:
		if err := x.dev.WaitIdle(); err != nil {
			x.createErr(s.Pos, err)
		}
	case *scenario.DestroyStep:
		var err error
		switch s.Kind {
		case "resource":
			if err = x.dev.DestroyResource(x.res[s.Name]); err == nil {
				x.leg.Destroy(x.res[s.Name])
			}
		case "heap":
			err = x.dev.DestroyHeap(x.heaps[s.Name])
		case "list":
			if l := x.lists[s.Name]; l != nil {
				l.Destroy()
			}
		}
		if err != nil {
			x.createErr(s.Pos, err)
			return
		}
		x.gone[s.Name] = true
	}
}

// record creates or resets a list, records it and closes it.
func (x *exec) record(s *scenario.ListStep) {
	dump := &ListDump{Name: s.Recording, Type: s.Type}
	x.dumps[s.Recording], x.last[s.Name] = dump, dump
	var cl CommandList
	if s.Reset {
		cl = x.lists[s.Name]
		if cl == nil {
			return // its creation failed, which was reported
		}
		dump.Type = x.dumps[s.Name].Type
		if err := cl.Reset(); err != nil {
			x.observe(x.listErr(s.Name, s.Pos, err))
			return
		}
		x.legLists[s.Name].Reset()
	} else {
		var err error
		if cl, err = x.dev.CreateCommandList(s.Type, s.Flags); err != nil {
			x.createErr(s.Pos, err)
			return
		}
		x.legLists[s.Name] = x.leg.NewList(s.Type)
	}
	leg := x.legLists[s.Name]
	tl := &touchList{CommandList: cl, x: x}
	var failedAt scenario.Pos
	// callAt is where each Barrier call of dump.Calls was made: a driver
	// that translates a list's calls together reports a failed one only
	// when the list is closed.
	var callAt []scenario.Pos
	for _, c := range s.Cmds {
		had := cl.Err() != nil
		switch c.Op {
		case "barrier", "resource-barrier":
			n := cl.LastBarrierCall()
			var call BarrierCall
			if c.Op == "barrier" {
				x.legacyUse(leg, s.Name, c)
				call.Barriers, call.Named = x.barrierCall(cl, c)
			} else {
				call.Barriers, call.Named = x.legacyCall(cl, leg, s.Name, c)
			}
			if o := cl.LastBarrierCall(); o != n {
				call.Ordinal = o
			}
			dump.Calls = append(dump.Calls, call)
			callAt = append(callAt, c.Pos)
		default:
			x.legacyUse(leg, s.Name, c)
			tl.cmd = c
			x.command(tl, c)
		}
		if !had && cl.Err() != nil {
			failedAt = c.Pos
		}
	}
	if err := cl.Close(); err != nil {
		var te *translator.Error
		if errors.As(err, &te) && te.Call > 0 {
			for i, c := range dump.Calls {
				if c.Ordinal == te.Call {
					failedAt = callAt[i]
				}
			}
		}
		x.observe(x.listErr(s.Name, failedAt, err))
	} else if cl.Err() == nil {
		x.touches = append(x.touches, x.checkTouches(s.Name, tl, cl.Buffer())...)
	}
	x.legacyObserve(leg.Close(), s.Name, s.Pos)
	for _, w := range cl.Warnings() {
		x.observe(Observed{Severity: debug.SeverityWarning, ID: w.ID, List: s.Name, Field: w.Field, Text: w.Error(), Pos: s.Pos})
	}
	dump.Lines = cmdbuf.Listing(cl.Buffer(), nil)
	// A reset reuses the list's memory: the dump keeps its own copy.
	dump.Records = slices.Clone(cl.Records())
	// A call whose translation failed, and those after it, have no
	// record: both are in the order of the calls.
	for i, j := 0, 0; i < len(dump.Calls); i++ {
		o := dump.Calls[i].Ordinal
		for j < len(dump.Records) && dump.Records[j].Call < o {
			j++
		}
		if o != 0 && (j == len(dump.Records) || dump.Records[j].Call != o) {
			dump.Calls[i].Ordinal = 0
		}
	}
	dump.markers = markers(cl.Buffer())
	cl.Buffer().SetName(s.Recording)
	x.lists[s.Name] = cl
}

// listErr is the observation of a list's error (recording it, closing or
// resetting it).
func (x *exec) listErr(list string, pos scenario.Pos, err error) Observed {
	o := Observed{Severity: debug.SeverityError, List: list, Text: err.Error(), Pos: pos}
	var m *debug.Message
	if errors.As(err, &m) {
		o.ID, o.Field = m.ID, m.Field
	}
	var te *translator.Error
	if errors.As(err, &te) && x.xfail == nil {
		x.xfail = te
	}
	return o
}

// markers lists a buffer's MARKERs (not those of buffers it CALLs).
func markers(b *cmdbuf.Buffer) []markerAt {
	var out []markerAt
	base, chunk := 0, 0
	b.Walk(func(c int, p cmdbuf.Packet, err error) error {
		if err != nil {
			return err
		}
		for ; chunk < c; chunk++ {
			base += len(b.Chunks()[chunk])
		}
		if p.Op() == cmdbuf.OpMarker {
			out = append(out, markerAt{base + p.Offset, int(p.Marker().Tag)})
		}
		return nil
	})
	return out
}

// attribute adds a packet's cost to the command of a recorded list whose
// MARKER it follows.
func (x *exec) attribute(pc hwmodel.PacketCost) {
	x.sample(pc)
	d := x.dumps[pc.Buffer.Name()]
	if d == nil {
		return
	}
	i, _ := slices.BinarySearchFunc(d.markers, pc.Offset, func(m markerAt, off int) int { return cmp.Compare(m.offset, off) })
	if i == len(d.markers) || d.markers[i].offset != pc.Offset {
		i--
	}
	if i < 0 {
		return
	}
	if d.Costs == nil {
		d.Costs = map[int]hwmodel.Counters{}
	}
	c := d.Costs[d.markers[i].tag]
	cycles := c.Cycles + pc.Cost.Cycles
	c.Add(pc.Cost)
	c.Cycles = cycles // Add keeps the maximum, for engines side by side
	d.Costs[d.markers[i].tag] = c
	bg := background(pc)
	if bg > 0 {
		if d.Background == nil {
			d.Background = map[int]uint64{}
		}
		d.Background[d.markers[i].tag] += bg
	}
	// The barrier calls' cost, by their records' ranges. A CHAIN at a
	// range's start closes the chunk before the call's MARKER: the command
	// before it, whose MARKER it follows, has it.
	r, _ := slices.BinarySearchFunc(d.Records, pc.Offset, func(rec driver.BarrierRecord, off int) int {
		if off < rec.Start {
			return 1
		}
		if off >= rec.End {
			return -1
		}
		return 0
	})
	if r < len(d.Records) && d.Records[r].Start <= pc.Offset && pc.Offset < d.Records[r].End &&
		(pc.Offset != d.Records[r].Start || pc.Op != cmdbuf.OpChain) {
		d.BarrierCycles += pc.Cost.Cycles + bg
	}
}

// background is the background work packet pc started: an asynchronous
// operation's cycles on its stage and those it was held for a drain
// before it could start (no other packet both runs asynchronously and is
// held: a WORK's hold is its own command's, not background it started).
func background(pc hwmodel.PacketCost) uint64 {
	if pc.Cost.AsyncCycles == 0 {
		return 0
	}
	return pc.Cost.AsyncCycles + pc.Cost.HeldCycles
}

// sample adds to the engine's counter samples, if the packet changed them.
func (x *exec) sample(pc hwmodel.PacketCost) {
	c := pc.Cost
	var lines uint64
	for _, n := range c.FlushedLines {
		lines += n
	}
	if c.StallCycles == 0 && lines == 0 && c.DecompressedBytes == 0 {
		return
	}
	if x.samples == nil {
		x.samples = map[*hwmodel.Engine][]CounterSample{}
	}
	ss := x.samples[pc.Engine]
	if len(ss) >= hwmodel.TimelineLimit {
		return
	}
	var last CounterSample
	if len(ss) > 0 {
		last = ss[len(ss)-1]
	}
	x.samples[pc.Engine] = append(ss, CounterSample{Time: pc.End, StallCycles: last.StallCycles + c.StallCycles,
		FlushedLines: last.FlushedLines + lines, DecompressedBytes: last.DecompressedBytes + c.DecompressedBytes})
}

// handle resolves a view's resource.
func (x *exec) handle(v scenario.ViewRef) ddi.HResource {
	if v.IsRaw {
		return ddi.HResource(v.Raw)
	}
	return x.res[v.Res]
}

// view resolves a view.
func (x *exec) view(v scenario.ViewRef) driver.View {
	h := x.handle(v)
	switch {
	case v.HasRange:
		return driver.BufferRange(h, v.Offset, v.Size)
	case v.HasSub:
		return driver.Subresource(h, v.Sub)
	}
	return driver.WholeTexture(h) // a buffer ignores the subresources
}

func (x *exec) views(c scenario.Cmd, role string) []driver.View {
	var out []driver.View
	for _, v := range c.Views[role] {
		out = append(out, x.view(v))
	}
	return out
}

// one is a role's single view (nil if absent).
func (x *exec) one(c scenario.Cmd, role string) *driver.View {
	vs := c.Views[role]
	if len(vs) == 0 {
		return nil
	}
	v := x.view(vs[0])
	return &v
}

// barrierCall records one barrier call, through the 0094 entry point or
// (DDI0088) the 0088 one, and returns its barriers as they print, by handle and by name.
func (x *exec) barrierCall(cl CommandList, c scenario.Cmd) (text, named []string) {
	bs := x.barriers(c.Barriers)
	text, named = make([]string, len(bs)), make([]string, len(bs))
	if !c.DDI0088 {
		cl.Barrier(bs)
		for i := range bs {
			text[i], named[i] = bs[i].String(), bs[i].Named(x.name)
		}
		return text, named
	}
	bs88 := x.barriers0088(c.Barriers, bs)
	for i := range bs88 {
		text[i], named[i] = bs88[i].String(), bs88[i].Named(x.name)
	}
	cl.Barrier0088(bs88)
	return text, named
}

// name is the scenario's name of a resource handle, "" if it named none.
func (x *exec) name(h ddi.HResource) string { return x.names[h] }

// barriers0088 makes a 0088 call's records of its specs and of what
// barriers made of them: the same but for ranged barriers, which carry the
// 0088 members.
func (x *exec) barriers0088(specs []scenario.BarrierSpec, bs []ddi.Barrier) []ddi.Barrier0088 {
	bs88 := make([]ddi.Barrier0088, len(bs))
	for i, s := range specs {
		if b, ok := bs[i].As0088(); ok || bs[i].Type != ddi.BarrierTypeRanged {
			bs88[i] = b
			continue
		}
		r := s.Ranged0088
		if s.HasRes {
			r.Resource = x.handle(s.Res)
			if s.Sub != nil {
				r.Subresources = x.subresources(r.Resource, s.Sub)
			}
		}
		bs88[i] = ddi.NewRangedBarrier0088(r)
	}
	return bs88
}

// barriers fills in the handles and subresources of a call's barriers.
func (x *exec) barriers(specs []scenario.BarrierSpec) []ddi.Barrier {
	out := make([]ddi.Barrier, len(specs))
	for i, s := range specs {
		b := s.Barrier
		if s.HasRes {
			h := x.handle(s.Res)
			var sub *ddi.SubresourceRange
			switch b.Type {
			case ddi.BarrierTypeTexture:
				b.Texture().Resource = h
				sub = &b.Texture().Subresources
			case ddi.BarrierTypeBuffer:
				b.Buffer().Resource = h
			case ddi.BarrierTypeRanged:
				b.Ranged().Resource = h
			}
			if sub != nil && s.Sub != nil {
				*sub = x.subresources(h, s.Sub)
			}
		}
		out[i] = b
	}
	return out
}

// subresources turns a written range into the DDI's; missing slices or
// planes are all of the resource's.
func (x *exec) subresources(h ddi.HResource, s *scenario.SubSpec) ddi.SubresourceRange {
	switch {
	case s.All:
		return ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
	case s.IsIndex:
		return ddi.SubresourceRange{IndexOrFirstMipLevel: s.Index}
	}
	r := ddi.SubresourceRange{IndexOrFirstMipLevel: s.Mips[0], NumMipLevels: s.Mips[1], FirstArraySlice: s.Slices[0],
		NumArraySlices: s.Slices[1], FirstPlane: s.Planes[0], NumPlanes: s.Planes[1]}
	if s.HasMips && s.HasSlices && s.HasPlanes {
		return r
	}
	desc, _, ok := x.dev.Describe(h)
	if ok {
		if !s.HasMips {
			r.IndexOrFirstMipLevel, r.NumMipLevels = 0, desc.MipLevels
		}
		if !s.HasSlices {
			r.FirstArraySlice, r.NumArraySlices = 0, desc.ArraySize
		}
		if !s.HasPlanes {
			r.FirstPlane, r.NumPlanes = 0, desc.PlaneCount()
		}
	}
	return r
}

// command records a work command.
func (x *exec) command(cl CommandList, c scenario.Cmd) {
	pos := func(i int) driver.View { return x.view(c.Views[fmt.Sprint(i)][0]) }
	h := func(i int) ddi.HResource { return pos(i).Resource }
	sub := func(i int) uint32 { return c.Views[fmt.Sprint(i)][0].Sub }
	u32 := func(i int) uint32 { return uint32(c.Args[i]) }
	switch c.Op {
	case "draw":
		d := driver.Draw{Arguments: x.one(c, "args"), IndexBuffer: x.one(c, "ib"), VertexBuffers: x.views(c, "vb"),
			Vertex:       driver.Shader{ConstantBuffers: x.views(c, "vs-cbv"), ShaderResources: x.views(c, "vs-srv"), UnorderedAccess: x.views(c, "vs-uav")},
			StreamOutput: x.views(c, "so"),
			Pixel:        driver.Shader{ConstantBuffers: x.views(c, "ps-cbv"), ShaderResources: x.views(c, "ps-srv"), UnorderedAccess: x.views(c, "ps-uav")},
			ShadingRate:  x.one(c, "shading-rate"), RenderTargets: x.views(c, "rt")}
		if ds := x.one(c, "ds-write"); ds != nil {
			d.DepthStencil, d.DepthWrite = ds, true
		} else {
			d.DepthStencil = x.one(c, "ds")
		}
		cl.Draw(d)
	case "dispatch":
		cl.Dispatch(driver.Dispatch{Arguments: x.one(c, "args"),
			Shader: driver.Shader{ConstantBuffers: x.views(c, "cbv"), ShaderResources: x.views(c, "srv"), UnorderedAccess: x.views(c, "uav")}})
	case "dispatch-rays":
		cl.DispatchRays(driver.DispatchRays{AccelerationStructures: x.views(c, "as"),
			Shader: driver.Shader{ConstantBuffers: x.views(c, "cbv"), ShaderResources: x.views(c, "srv"), UnorderedAccess: x.views(c, "uav")}})
	case "build-as":
		var scratch driver.View
		if s := x.one(c, "scratch"); s != nil {
			scratch = *s
		}
		cl.BuildRaytracingAccelerationStructure(pos(0), x.views(c, "inputs"), x.one(c, "source"), scratch)
	case "copy-as":
		cl.CopyRaytracingAccelerationStructure(pos(0), pos(1))
	case "postbuild-info":
		cl.EmitRaytracingAccelerationStructurePostbuildInfo(pos(0), pos(1))
	case "copy-buffer":
		cl.CopyBufferRegion(h(0), c.Args[0], h(2), c.Args[1], c.Args[2])
	case "copy-resource":
		cl.CopyResource(h(0), h(1))
	case "copy-texture":
		cl.CopyTextureRegion(h(0), sub(0), u32(0), u32(1), u32(2), h(4), sub(4), c.Box)
	case "copy-texture-to-buffer":
		cl.CopyTextureToBuffer(h(0), c.Args[0], h(2), sub(2))
	case "copy-buffer-to-texture":
		cl.CopyBufferToTexture(h(0), sub(0), h(1), c.Args[0])
	case "resolve":
		cl.ResolveSubresource(h(0), sub(0), h(1), sub(1))
	case "clear-rt":
		cl.ClearRenderTargetView(pos(0), u32(0))
	case "clear-ds":
		cl.ClearDepthStencilView(pos(0), u32(0))
	case "clear-uav":
		cl.ClearUnorderedAccessView(pos(0), u32(0))
	case "discard":
		cl.DiscardResource(pos(0))
	case "predication":
		cl.SetPredication(h(0), c.Args[0], ddi.PredicationOp(c.Op2))
	case "atomic-copy":
		cl.AtomicCopyBufferUINT(h(0), c.Args[0], h(2), c.Args[1], c.Flag)
	case "begin-query":
		cl.BeginQuery(x.qheaps[c.Query], ddi.QueryType(c.Op2), uint32(c.Args[0]))
	case "end-query":
		cl.EndQuery(x.qheaps[c.Query], ddi.QueryType(c.Op2), uint32(c.Args[0]))
	case "resolve-query":
		cl.ResolveQueryData(x.qheaps[c.Query], ddi.QueryType(c.Op2), uint32(c.Args[0]), uint32(c.Args[1]), h(0), c.Args[2])
	case "decode", "process", "encode":
		v := driver.Video{Inputs: x.views(c, "in"), References: x.views(c, "ref"), Outputs: x.views(c, "out")}
		switch c.Op {
		case "decode":
			cl.DecodeFrame(v)
		case "process":
			cl.ProcessFrames(v)
		default:
			cl.EncodeFrame(v)
		}
	}
}

// check evaluates the expectations and the implicit ones: no machine
// fault, no validation error nobody expected, no hazard unless one is
// expected.
func (x *exec) check() {
	r := &x.res0
	hazardExpected := false
	for _, e := range x.sc.Expects {
		if e.Kind == "hazard" || e.Kind == "detected" {
			hazardExpected = true
		}
	}
	for _, e := range x.sc.Expects {
		r.Expectations = append(r.Expectations, x.expectation(e))
	}
	// The debug layer rejected the program when it reported an error
	// the case expects: what an invalid program does on the GPU is
	// undefined, so its hazards and bytes are reported, not judged.
	invalid := false
	for _, o := range r.Observed {
		invalid = invalid || o.Severity == debug.SeverityError && o.expected && o.ID != 0
	}
	for i, e := range x.sc.Expects {
		er := &r.Expectations[i]
		if er.OK {
			continue
		}
		line := fmt.Sprintf("%s: expect %s: %s", e.Pos, er.Text, er.Detail)
		switch {
		case e.Kind == "packets" || e.Kind == "cost":
			r.Notes = append(r.Notes, NoteBrokenPromise+line)
		case (e.Kind == "hazard" || e.Kind == "detected") && len(r.Hazards) == 0:
			// No hazard at all: the driver synchronised more than the
			// program asked. Another hazard than the one expected is the
			// driver's, and fails.
			r.Notes = append(r.Notes, NoteMasked+line)
		case invalid && (e.Kind == "reference" || e.Kind == "bytes" || e.Kind == "no-hazard"):
			r.Notes = append(r.Notes, NoteInvalid+line)
		default:
			r.Failures = append(r.Failures, line)
		}
	}
	for _, f := range r.Faults {
		r.Failures = append(r.Failures, fmt.Sprintf("the GPU faulted: %s", f))
	}
	// Work that touched other bytes than the program says fails the case
	// whatever it expects: the reference runs the same packets, so the
	// bytes alone cannot show it (touch.go).
	for i, t := range x.touches {
		if i == 3 {
			r.Failures = append(r.Failures, fmt.Sprintf("... and %d more commands touch other bytes than the program says", len(x.touches)-3))
			break
		}
		r.Failures = append(r.Failures, t)
	}
	for _, o := range r.Observed {
		if o.Severity == debug.SeverityError && !o.expected {
			r.Failures = append(r.Failures, "unexpected error"+o.where()+": "+o.Text)
		}
	}
	if !hazardExpected {
		add := func(s string) { r.Failures = append(r.Failures, s) }
		if invalid {
			add = func(s string) { r.Notes = append(r.Notes, NoteInvalid+s) }
		}
		for i, h := range r.Hazards {
			if i == 3 {
				add(fmt.Sprintf("... and %d more hazards", len(r.Hazards)-3))
				break
			}
			add("hazard: " + h.Message)
		}
	}
	if len(r.Failures) > 0 {
		r.Status = Fail
	}
	// A translator that crashed or timed out did not translate the case:
	// it is not judged, and says so.
	switch {
	case x.xfail == nil:
	case x.xfail.Kind == translator.ErrCrash:
		r.Status = Crash
	case x.xfail.Kind == translator.ErrTimeout:
		r.Status = Timeout
	}
}

// The notes a case's result carries beside its verdict (Result.Notes):
// what a driver did that costs or hides but is not unsafe.
const (
	// NoteBrokenPromise: an `expect packets` or `expect cost` line, a
	// claim about the reference's translation, does not hold.
	NoteBrokenPromise = "reference promise not met: "
	// NoteMasked: a negative case's hazard did not happen; the driver's
	// extra synchronisation hid the program's mistake.
	NoteMasked = "over-synchronised, masked the hazard: "
	// NoteInvalid: the debug layer rejected the program, whose GPU
	// behaviour is then undefined; its hazards and bytes are reported.
	NoteInvalid = "invalid program, not judged: "
	// NoteCostlier: a translator's case cost more than the reference's
	// record of it.
	NoteCostlier = "costs more than the reference: "
	// NoteFlaky: the case did not pass, matched a known flake
	// (Config.Flakes), and was run once more; its status is the second
	// run's.
	NoteFlaky = "flaky"
)

// noteKinds are the notes' prefixes, as WriteSummary counts them.
var noteKinds = []struct{ prefix, name string }{
	{NoteBrokenPromise, "reference promises not met"},
	{NoteMasked, "over-synchronised (masked the hazard)"},
	{NoteInvalid, "invalid programs (hazards and bytes not judged)"},
	{NoteFlaky, "known flakes retried"},
	{NoteCostlier, "costlier than the reference's record"},
}

func (x *exec) expectation(e scenario.Expect) ExpectResult {
	r := &x.res0
	er := ExpectResult{Pos: e.Pos, Text: e.String()}
	switch e.Kind {
	case "detected":
		// The judge noticed: a hazard, or a resource's bytes differ from
		// the reference (a random program's negative form).
		if len(r.Hazards) > 0 {
			er.OK, er.Detail = true, r.Hazards[0].Message
			return er
		}
		ref := x.expectation(scenario.Expect{Pos: e.Pos, Kind: "reference", Res: e.Res})
		er.OK = !ref.OK
		er.Detail = "no hazard; every resource " + ref.Detail
		if !ref.OK {
			er.Detail = "no hazard, but " + ref.Detail
		}
	case "reference":
		var regions []hwmodel.Region
		names := e.Res
		if len(names) == 0 {
			for _, st := range x.sc.Steps {
				if rs, ok := st.(*scenario.ResourceStep); ok && !x.gone[rs.Name] {
					names = append(names, scenario.ViewRef{Res: rs.Name})
				}
			}
		}
		seen := map[hwmodel.Region]bool{}
		for _, v := range names {
			reg, detail := x.viewRegion(v)
			if detail != "" {
				er.Detail = detail
				return er
			}
			if seen[reg] {
				continue // a view named again: compared once
			}
			seen[reg] = true
			regions = append(regions, reg)
		}
		diffs, err := x.dev.Machine().Compare(regions...)
		if err != nil {
			er.Detail = err.Error()
			return er
		}
		if len(diffs) > 0 {
			var ds []string
			for i, d := range diffs {
				if i == 3 {
					ds = append(ds, fmt.Sprintf("... and %d more", len(diffs)-3))
					break
				}
				ds = append(ds, d.String())
			}
			er.Detail = "differs from the reference: " + strings.Join(ds, "; ")
			return er
		}
		er.OK, er.Detail = true, "equal to the reference"
	case "bytes":
		v := e.Res[0]
		reg, detail := x.viewRegion(v)
		if detail != "" {
			er.Detail = detail
			return er
		}
		if uint64(len(e.Bytes)) > reg.Size {
			if v.HasRange {
				er.Detail = fmt.Sprintf("%d bytes expected of the %d-byte view %s", len(e.Bytes), v.Size, v)
			} else {
				er.Detail = fmt.Sprintf("%s has %d bytes", v.Res, reg.Size)
			}
			return er
		}
		// Only the bytes expected are read: a 5 GiB buffer's first
		// bytes cost what they are, not the whole resource.
		got, err := x.dev.Machine().Logical(reg.Addr, uint64(len(e.Bytes)), reg.Surface)
		if err != nil {
			er.Detail = err.Error()
			return er
		}
		if !bytes.Equal(got, e.Bytes) {
			er.Detail = fmt.Sprintf("found % x", got[:min(len(got), 32)])
			return er
		}
		er.OK, er.Detail = true, "equal"
	case "no-hazard":
		er.OK = len(r.Hazards) == 0
		er.Detail = fmt.Sprintf("%d hazards", len(r.Hazards))
	case "hazard":
		for _, h := range r.Hazards {
			if h.Kind == e.Hazard && (len(e.Res) == 0 || h.Resource == e.Res[0].Res) {
				er.OK, er.Detail = true, h.Message
				return er
			}
		}
		var kinds []string
		for _, h := range r.Hazards {
			kinds = append(kinds, h.Kind.String()+" on "+h.Resource)
		}
		er.Detail = "none; found " + orNone(kinds)
	case "error", "warning":
		sev := debug.SeverityError
		if e.Kind == "warning" {
			sev = debug.SeverityWarning
		}
		// Each line claims one message not claimed by an earlier line, so
		// two identical lines need two messages; with count N, the line
		// claims every match and there must be exactly N.
		var seen []string
		matched := 0
		for i := range r.Observed {
			o := &r.Observed[i]
			if o.Severity != sev {
				continue
			}
			seen = append(seen, fmt.Sprintf("#%d", o.ID))
			if o.ID != e.ID || e.List != "" && o.List != e.List || e.Field != "" && o.Field != e.Field || !strings.Contains(o.Text, e.Text) {
				continue
			}
			if !e.Counted {
				if o.expected {
					continue
				}
				o.expected = true
				er.OK, er.Detail = true, o.Text
				return er
			}
			o.expected = true
			matched++
		}
		if e.Counted {
			er.OK, er.Detail = uint64(matched) == e.N, fmt.Sprintf("%d matching", matched)
			return er
		}
		er.Detail = "none unclaimed; found " + orNone(seen)
	case "packets":
		op, _ := scenario.LookupOpcode(e.Op)
		var n uint64
		if e.List != "" {
			for _, l := range x.last[e.List].Lines {
				if l.Op == e.Op {
					n++
				}
			}
		} else {
			n = r.Counters.PacketCount(op)
		}
		er.OK, er.Detail = compare(n, e.Cmp, e.N), fmt.Sprint(n)
	case "cost":
		n := scenario.Metrics[e.Op](r.Counters)
		er.OK, er.Detail = compare(n, e.Cmp, e.N), fmt.Sprint(n)
	}
	return er
}

func compare(n uint64, cmp string, want uint64) bool {
	switch cmp {
	case "==":
		return n == want
	case "<=":
		return n <= want
	case ">=":
		return n >= want
	case "<":
		return n < want
	case ">":
		return n > want
	}
	return false
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// viewRegion is the bytes a view of an expectation names: a buffer range's
// own bytes, or the whole resource. detail says why there are none.
func (x *exec) viewRegion(v scenario.ViewRef) (reg hwmodel.Region, detail string) {
	_, reg, ok := x.dev.Describe(x.handle(v))
	if !ok {
		if x.gone[v.Res] {
			return reg, fmt.Sprintf("%s was destroyed", v.Res)
		}
		return reg, fmt.Sprintf("%s was not created", v.Res)
	}
	if v.HasRange {
		if v.Offset > reg.Size || v.Size > reg.Size-v.Offset {
			return reg, fmt.Sprintf("the view %s runs past the %d bytes of %s", v, reg.Size, v.Res)
		}
		reg.Name, reg.Addr, reg.Size = v.String(), reg.Addr+v.Offset, v.Size
	}
	return reg, ""
}
