package dditrace

import (
	"fmt"
	"io"
	"strings"
)

// Report is what a trace saw.
type Report struct {
	// PID is the traced process, Executable its program.
	PID        int    `json:"pid"`
	Executable string `json:"executable"`
	// Seconds is how long the probes were attached.
	Seconds float64 `json:"seconds"`
	// Probes counts the uprobes attached: one at each entry point's
	// first instruction and one at each of its RET instructions.
	Probes   int      `json:"probes"`
	Overhead Overhead `json:"probe_overhead"`
	// DDIs are the entry points in EntryPoints' order; Missing names
	// those the program does not link.
	DDIs    []DDI    `json:"ddis"`
	Missing []string `json:"missing_entry_points,omitempty"`
	// Captured counts the Barrier calls whose arrays were copied.
	Captured Captured `json:"captured"`
}

// Overhead is what the probes cost, measured on this machine when the
// trace started by tracing an empty function of the tracer itself.
type Overhead struct {
	// CallNs is how much longer one call of a traced function takes
	// with its entry and return probes attached.
	CallNs float64 `json:"call_ns"`
	// FloorNs is the latency the probes report for that empty
	// function: the part of every latency below that is the probes'.
	FloorNs float64 `json:"floor_ns"`
	// CaptureNs is what a Barrier call of CaptureRecords records costs
	// more for the copy of its records (outside its latency).
	CaptureNs      float64 `json:"capture_ns"`
	CaptureRecords int     `json:"capture_records"`
}

// DDI is one entry point's calls.
type DDI struct {
	Name   string `json:"name"`
	Symbol string `json:"symbol"`
	// Calls counts entries, Returned the calls whose return was seen
	// (the rest were still running when the trace stopped, or left by a
	// panic).
	Calls    uint64 `json:"calls"`
	Returned uint64 `json:"returned"`
	// StackGrowths counts calls whose entry probe fired twice because
	// the function grew its goroutine's stack and began again; each is
	// counted once in Calls.
	StackGrowths uint64 `json:"stack_growths"`
	// TotalNs sums the returned calls' latencies.
	TotalNs uint64 `json:"total_ns"`
	// Histogram counts returned calls by latency: bucket 0 is 0 ns,
	// bucket k is [2^(k-1), 2^k) ns.
	Histogram [Buckets]uint64 `json:"histogram_log2_ns"`
}

// Captured counts the Barrier arrays copied out of the process.
type Captured struct {
	Calls   uint64 `json:"calls"`
	Records uint64 `json:"records"`
	// Truncated counts calls longer than the capture bound: their first
	// records were copied, the rest only counted.
	Truncated uint64 `json:"truncated"`
	// LostChunks counts chunks of records the ring buffer had no room
	// for; Incomplete, the calls they belonged to (neither is written
	// out). Faults counts calls whose array could not be read.
	LostChunks uint64 `json:"lost_chunks"`
	Incomplete int    `json:"incomplete"`
	Faults     uint64 `json:"faults"`
}

// Complete says whether every Barrier call that entered was captured
// whole.
func (c Captured) Complete() bool {
	return c.LostChunks == 0 && c.Incomplete == 0 && c.Faults == 0
}

// WriteText prints the report: a line on the process and the probes, a
// table of calls, and a latency histogram per entry point that was called.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "traced pid %d (%s) for %.2f s with %d uprobes\n", r.PID, r.Executable, r.Seconds, r.Probes)
	fmt.Fprintf(&b, "probe overhead: about %.0f ns a traced call; the latencies below include about %.0f ns of it\n",
		r.Overhead.CallNs, r.Overhead.FloorNs)
	capture := fmt.Sprintf("about %.0f ns", r.Overhead.CaptureNs)
	if r.Overhead.CaptureNs < 100 {
		capture = "under 100 ns"
	}
	fmt.Fprintf(&b, "copying a Barrier call's records: %s more for %d records, outside its latency\n",
		capture, r.Overhead.CaptureRecords)
	if len(r.Missing) > 0 {
		fmt.Fprintf(&b, "not linked by the program (never called): %s\n", strings.Join(r.Missing, ", "))
	}
	fmt.Fprintf(&b, "\n%-42s %10s %10s %12s\n", "DDI", "calls", "returned", "mean ns")
	for _, d := range r.DDIs {
		mean := "-"
		if d.Returned > 0 {
			mean = fmt.Sprintf("%.0f", float64(d.TotalNs)/float64(d.Returned))
		}
		fmt.Fprintf(&b, "%-42s %10d %10d %12s\n", d.Name, d.Calls, d.Returned, mean)
	}
	c := r.Captured
	fmt.Fprintf(&b, "\nbarrier arrays captured: %d calls, %d records", c.Calls, c.Records)
	if c.Truncated > 0 {
		fmt.Fprintf(&b, "; %d calls longer than the capture bound were cut", c.Truncated)
	}
	if !c.Complete() {
		fmt.Fprintf(&b, "; LOST: %d chunks (ring buffer full), %d calls incomplete, %d unreadable", c.LostChunks, c.Incomplete, c.Faults)
	}
	b.WriteString("\n")
	for _, d := range r.DDIs {
		if d.Returned == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n@%s latency (ns), %d calls", d.Name, d.Returned)
		if d.StackGrowths > 0 {
			fmt.Fprintf(&b, ", %d grew the stack", d.StackGrowths)
		}
		b.WriteString(":\n")
		if err := WriteHistogram(&b, &d.Histogram); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
