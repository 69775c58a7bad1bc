package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk"
)

// traceWriter collects runs' timelines as Chrome trace-event JSON, the
// format Perfetto (ui.perfetto.dev) and chrome://tracing open: a process
// per case and profile, a thread per engine and stage, a complete ("X")
// event per packet on the command processor or a stage. One cycle is shown
// as one microsecond, the unit of the format's timestamps.
type traceWriter struct {
	events []traceEvent
	pid    int
}

type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   uint64         `json:"ts"`
	Dur  uint64         `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// add adds one case's run on one profile.
func (t *traceWriter) add(name, profile string, r hlk.Result) {
	t.pid++
	t.events = append(t.events, traceEvent{Name: "process_name", Ph: "M", Pid: t.pid,
		Args: map[string]any{"name": fmt.Sprintf("%s on %s", name, profile)}})
	for i, e := range r.Engines {
		threads := map[cmdbuf.Stage]bool{}
		for _, s := range e.Timeline {
			tid := i*int(cmdbuf.NumStages) + int(s.Stage) + 1
			if !threads[s.Stage] {
				threads[s.Stage] = true
				t.events = append(t.events,
					traceEvent{Name: "thread_name", Ph: "M", Pid: t.pid, Tid: tid,
						Args: map[string]any{"name": e.Engine + " " + s.Stage.String()}},
					traceEvent{Name: "thread_sort_index", Ph: "M", Pid: t.pid, Tid: tid,
						Args: map[string]any{"sort_index": tid}})
			}
			ev := traceEvent{Name: s.What, Cat: e.Engine, Ph: "X", Ts: s.Start, Dur: s.End - s.Start, Pid: t.pid, Tid: tid,
				Args: map[string]any{"submission": s.Batch}}
			if s.Offset >= 0 {
				ev.Args["dword"] = s.Offset
				if s.Buffer != "" {
					ev.Args["list"] = s.Buffer
				}
			}
			t.events = append(t.events, ev)
		}
	}
}

func (t *traceWriter) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if err := json.NewEncoder(bw).Encode(struct {
		TraceEvents     []traceEvent      `json:"traceEvents"`
		DisplayTimeUnit string            `json:"displayTimeUnit"`
		OtherData       map[string]string `json:"otherData"`
	}{t.events, "ms", map[string]string{"time unit": "1 us = 1 GPU cycle of the ebref hardware model"}}); err != nil {
		return err
	}
	return bw.Flush()
}

// writeTo writes the trace to f and closes it.
func (t *traceWriter) writeTo(f *os.File) error {
	err := t.write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
