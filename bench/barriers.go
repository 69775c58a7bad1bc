package bench

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
)

// BarrierRecord is what one barrier call cost, in the spirit of a GPU
// profiler's barrier pane: where it came from, its duration on the command
// processor, the stall it caused and the stages it drained, the caches it
// wrote back and dropped, and its layout transitions' surface work. For
// the oracle, which has no calls, a record is the synchronisation it put
// before one command.
type BarrierRecord struct {
	List    string `json:"list"`
	Command int    `json:"command"` // its ordinal among the list's commands (its MARKER's number), 0 if it recorded nothing
	// Source is who asked for it: the application (an enhanced Barrier
	// call), the runtime (its translation of a ResourceBarrier call), or
	// the oracle (before the command it names).
	Source   string   `json:"source"`
	Barriers []string `json:"barriers,omitempty"` // the call's barriers as they print, each resource by the workload's name for it
	// Cycles is what it cost, summed over every execution of its list:
	// its duration on the command processor, stall included (CPCycles),
	// and the background work it started (BackgroundCycles: a split
	// barrier's begin carries its asynchronous cache and compression
	// work, the cycles that work waited for its drain and ran). A frame's
	// calls add up to its Row.BarrierCycles.
	Cycles           uint64 `json:"cycles"`
	CPCycles         uint64 `json:"cp_cycles"`
	BackgroundCycles uint64 `json:"background_cycles"`
	StallCycles      uint64 `json:"stall_cycles"`
	Drained          string `json:"drained"`     // the stages its waits drained (the oracle: those it stalled on)
	Flushed          string `json:"flushed"`     // the caches it wrote back (the oracle: those it wrote lines back from)
	Invalidated      string `json:"invalidated"` // the caches it dropped lines of (likewise)
	// Waits, CacheOps, Decompresses and MetadataInits count its packets;
	// a DECOMPRESS or METADATA_INIT is a layout transition's surface work.
	Waits             uint64 `json:"waits"`
	CacheOps          uint64 `json:"cache_ops"`
	Decompresses      uint64 `json:"decompresses"`
	MetadataInits     uint64 `json:"metadata_inits"`
	FlushedLines      uint64 `json:"flushed_lines"`
	InvalidatedLines  uint64 `json:"invalidated_lines"`
	DecompressedBytes uint64 `json:"decompressed_bytes"`
	MetadataBytes     uint64 `json:"metadata_bytes"`
}

// barrierRecords are a run's records: one per barrier call of every list,
// in recording order; for the oracle (and best), one per command it put
// synchronisation before.
func barrierRecords(res hlk.Result, s Strategy) []BarrierRecord {
	var out []BarrierRecord
	for _, l := range res.Lists {
		if s == Oracle || s == Best {
			for _, cmd := range slices.Sorted(maps.Keys(l.Costs)) {
				c := l.Costs[cmd]
				if syncPackets(c) == 0 {
					continue
				}
				r := fromCounters(l.Name, cmd, string(s), c)
				r.Drained = nonZero[cmdbuf.StageMask](c.StallsByStage[:]).String()
				r.Flushed = nonZero[cmdbuf.CacheMask](c.FlushedLines[:]).String()
				r.Invalidated = nonZero[cmdbuf.CacheMask](c.InvalidatedLines[:]).String()
				out = append(out, r)
			}
			continue
		}
		source := "application"
		if s == Legacy {
			source = "runtime (ResourceBarrier)"
		}
		for _, call := range l.Calls {
			r := fromCounters(l.Name, call.Ordinal, source, l.Costs[call.Ordinal])
			r.BackgroundCycles = l.Background[call.Ordinal]
			r.Cycles = l.CommandCycles(call.Ordinal)
			r.Barriers = call.Named
			r.Drained, r.Flushed, r.Invalidated = "NONE", "NONE", "NONE"
			for _, rec := range l.Records {
				if call.Ordinal != 0 && rec.Call == call.Ordinal {
					r.Drained, r.Flushed, r.Invalidated = rec.Drain.String(), rec.Flush.String(), rec.Invalidate.String()
				}
			}
			out = append(out, r)
		}
	}
	return out
}

func fromCounters(list string, cmd int, source string, c hwmodel.Counters) BarrierRecord {
	r := BarrierRecord{List: list, Command: cmd, Source: source, Cycles: c.Cycles, CPCycles: c.Cycles, StallCycles: c.StallCycles,
		Waits: c.PacketCount(cmdbuf.OpWait) + c.PacketCount(cmdbuf.OpEventWait), CacheOps: c.PacketCount(cmdbuf.OpCache),
		Decompresses: c.PacketCount(cmdbuf.OpDecompress), MetadataInits: c.PacketCount(cmdbuf.OpMetadataInit),
		DecompressedBytes: c.DecompressedBytes, MetadataBytes: c.MetadataBytes}
	for k := range c.FlushedLines {
		r.FlushedLines += c.FlushedLines[k]
		r.InvalidatedLines += c.InvalidatedLines[k]
	}
	return r
}

func syncPackets(c hwmodel.Counters) uint64 {
	return c.PacketCount(cmdbuf.OpWait) + c.PacketCount(cmdbuf.OpCache) + c.PacketCount(cmdbuf.OpDecompress) +
		c.PacketCount(cmdbuf.OpMetadataInit)
}

// nonZero is the mask of the indices where v is not zero: the stages a
// record stalled on, the caches it wrote back or dropped lines of.
func nonZero[M ~uint32](v []uint64) M {
	var m M
	for i, n := range v {
		if n != 0 {
			m |= 1 << i
		}
	}
	return m
}

// WriteBarriers writes every run's barrier records: a block per workload,
// profile and strategy, a line per call.
func WriteBarriers(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ebref bench --barriers: %s.\n", Modelled)
	for _, r := range rows {
		fmt.Fprintf(tw, "\n%s on %s, %s: %d records\n", r.Workload, r.Profile, r.Strategy, len(r.Barriers))
		if len(r.Barriers) == 0 {
			continue
		}
		fmt.Fprintln(tw, "list\tcommand\tsource\tcycles\tCP\tbackground\tstall\tdrained\tflushed\tinvalidated\tlines flushed\tlines dropped\tdecompressed\tmetadata\tbarriers")
		for _, b := range r.Barriers {
			fmt.Fprintf(tw, "%s\t#%d\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t%d B (%d)\t%d B (%d)\t%s\n", b.List, b.Command, b.Source,
				b.Cycles, b.CPCycles, b.BackgroundCycles, b.StallCycles, b.Drained, b.Flushed, b.Invalidated, b.FlushedLines, b.InvalidatedLines,
				b.DecompressedBytes, b.Decompresses, b.MetadataBytes, b.MetadataInits, strings.Join(b.Barriers, "; "))
		}
	}
	return tw.Flush()
}
