package main

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
)

// traceWriter streams runs' timelines to a file as Chrome trace-event
// JSON, the format Perfetto (ui.perfetto.dev) and chrome://tracing open: a
// process per case and profile, a thread per engine and stage, a complete
// ("X") event per packet on the command processor or a stage, counter
// tracks of each engine's running stall cycles, lines written back and
// bytes decompressed, and a flow from each fence signal to the waits it
// released. One cycle is
// shown as one microsecond, the unit of the format's timestamps. Events are
// written as they come, so memory stays flat however many cases run; the
// file holds at most maxTraceEvents of them.
type traceWriter struct {
	f       *outputFile
	w       *bufio.Writer
	pid     int
	events  int
	dropped int
	flows   int   // fence flows drawn, the last one's id
	err     error // the first write error
	closed  bool
}

// maxTraceEvents bounds a trace file (about 150 bytes an event).
var maxTraceEvents = 1 << 21 // a variable for the test of the bound

type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   uint64         `json:"ts"`
	Dur  uint64         `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	ID   int            `json:"id,omitempty"` // a flow's, pairing its start and end
	Bp   string         `json:"bp,omitempty"` // "e": a flow ends at the enclosing slice
	Args map[string]any `json:"args,omitempty"`
}

// newTrace starts a trace in f, nil for no file. The caller closes it
// (closing twice is closing once), which ends the JSON and puts the file
// in its place.
func newTrace(f *outputFile) *traceWriter {
	if f == nil {
		return nil
	}
	t := &traceWriter{f: f, w: bufio.NewWriter(f)}
	_, t.err = t.w.WriteString(`{"displayTimeUnit":"ms","traceEvents":[`)
	return t
}

func (t *traceWriter) emit(ev traceEvent) {
	if t.err != nil {
		return
	}
	if t.events == maxTraceEvents {
		t.dropped++
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.err = err
		return
	}
	if t.events > 0 {
		t.w.WriteByte(',')
	}
	t.events++
	_, t.err = t.w.Write(b)
}

// add adds one case's run on one profile.
func (t *traceWriter) add(name, profile string, r hlk.Result) {
	defer t.fenceFlows(r)
	t.pid++
	t.emit(traceEvent{Name: "process_name", Ph: "M", Pid: t.pid,
		Args: map[string]any{"name": fmt.Sprintf("%s on %s", name, profile)}})
	lists := map[string]*hlk.ListDump{} // by recording, as spans name buffers
	calls := map[*hlk.ListDump]map[int]bool{}
	for i := range r.Lists {
		l := &r.Lists[i]
		lists[l.Name], calls[l] = l, map[int]bool{}
		for _, c := range l.Calls {
			calls[l][c.Ordinal] = c.Ordinal != 0
		}
	}
	for i, e := range r.Engines {
		var named [cmdbuf.NumStages]bool
		for _, s := range e.Timeline {
			tid := i*int(cmdbuf.NumStages) + int(s.Stage) + 1
			if !named[s.Stage] {
				named[s.Stage] = true
				t.emit(traceEvent{Name: "thread_name", Ph: "M", Pid: t.pid, Tid: tid,
					Args: map[string]any{"name": e.Engine + " " + s.Stage.String()}})
				t.emit(traceEvent{Name: "thread_sort_index", Ph: "M", Pid: t.pid, Tid: tid,
					Args: map[string]any{"sort_index": tid}})
			}
			ev := traceEvent{Name: s.What, Cat: e.Engine, Ph: "X", Ts: s.Start, Dur: s.End - s.Start, Pid: t.pid, Tid: tid,
				Args: map[string]any{"submission": s.Batch}}
			if s.Offset >= 0 {
				ev.Args["dword"] = s.Offset
				if s.Buffer != "" {
					ev.Args["list"] = s.Buffer
				}
				// The command whose packet it is: a split begin's
				// background work on the BLIT is the begin's, and a
				// barrier call's slices say what the call cost.
				if l := lists[s.Buffer]; l != nil {
					if n := l.CommandOf(s.Offset); n != 0 {
						ev.Args["command"] = n
						if calls[l][n] {
							ev.Args["barrier call cycles"] = l.CommandCycles(n)
							ev.Args["background cycles"] = l.Background[n]
						}
					}
				}
			}
			t.emit(ev)
		}
		for _, c := range e.Samples {
			for _, v := range []struct {
				name string
				n    uint64
			}{{"stall cycles", c.StallCycles}, {"flushed lines", c.FlushedLines}, {"decompressed bytes", c.DecompressedBytes}} {
				t.emit(traceEvent{Name: v.name, Ph: "C", Ts: c.Time, Pid: t.pid, Args: map[string]any{e.Engine: v.n}})
			}
		}
	}
}

// fenceFlows draws an arrow from each FENCE_SIGNAL to the FENCE_WAITs of
// the same fence and value it released, across engines, in the run just
// added.
func (t *traceWriter) fenceFlows(r hlk.Result) {
	type at struct {
		ts  uint64
		tid int
	}
	signals := map[cmdbuf.Fence]at{}
	tid := func(engine int, s hwmodel.Span) int { return engine*int(cmdbuf.NumStages) + int(s.Stage) + 1 }
	for i, e := range r.Engines {
		for _, s := range e.Timeline {
			if s.Fence.ID != 0 && s.What == "FENCE_SIGNAL" {
				signals[s.Fence] = at{s.Start, tid(i, s)}
			}
		}
	}
	for i, e := range r.Engines {
		for _, s := range e.Timeline {
			sig, ok := signals[s.Fence]
			if s.Fence.ID == 0 || s.What != "FENCE_WAIT" || !ok {
				continue
			}
			t.flows++
			name := fmt.Sprintf("fence %d = %d", s.Fence.ID, s.Fence.Value)
			t.emit(traceEvent{Name: name, Cat: "fence", Ph: "s", Ts: sig.ts, Pid: t.pid, Tid: sig.tid, ID: t.flows})
			t.emit(traceEvent{Name: name, Cat: "fence", Ph: "f", Bp: "e", Ts: s.Start, Pid: t.pid, Tid: tid(i, s), ID: t.flows})
		}
	}
}

// close ends the trace, saying in it how many events were left out, and
// closes the file; the error is the first that writing met. Closing twice
// is closing once.
func (t *traceWriter) close() error {
	if t.closed {
		return t.err
	}
	t.closed = true
	if t.err == nil {
		other := map[string]string{"time unit": "1 us = 1 GPU cycle of the ebref hardware model"}
		if t.dropped > 0 {
			other["truncated"] = fmt.Sprintf("%d events left out after the first %d", t.dropped, maxTraceEvents)
		}
		b, _ := json.Marshal(other)
		t.w.WriteString(`],"otherData":`)
		t.w.Write(b)
		_, t.err = t.w.WriteString("}\n")
	}
	if err := t.w.Flush(); t.err == nil {
		t.err = err
	}
	if t.err != nil {
		t.f.abort()
		return t.err
	}
	t.err = t.f.commit()
	return t.err
}
