package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ebref/ebref/bench/internal/oracle"
	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// Best is the cheapest clean program the search finds for a workload on a
// profile (docs/bench.md "Best"): the oracle's program with edits that
// move cache work off the command processor's path, each candidate run on
// the machine and kept only if it is hazard-free with the reference bytes
// and costs less. It is no lower bound: Row.BoundCycles is.
const Best Strategy = "best"

// edit is one kind of change the search makes to the oracle's packets.
type edit uint8

const (
	// editMerge merges a CACHE packet into the one right before it when
	// both are synchronous (or both asynchronous) over one range: one
	// CACHE's base cost instead of two.
	editMerge edit = 1 << iota
	// editEarlyWriteBack writes back, asynchronously in the BLIT stage,
	// the range each write leaves dirty in its caches right after the last
	// work of the submission that writes it (a WAIT that holds only BLIT
	// orders it after that work), instead of leaving it to the end of the
	// submission, whose write-back overlaps nothing.
	editEarlyWriteBack
	// editParents follows each synchronous flush with an asynchronous
	// flush of the caches below the ones it flushed, over its range: the
	// lines it moved down reach memory beside the work that follows.
	editParents
)

// editNames name the edits, in the order of their bits.
var editNames = []string{"merge-cache", "early-write-back", "parent-write-back"}

func (s edit) String() string {
	var out []string
	for i, n := range editNames {
		if s&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "+")
}

// bestCandidates are the edit sets the search tries, in order: every edit,
// then fewer, so a set the machine judges unclean gives way to a part. The search is bounded (at most this many runs a
// workload and profile) and deterministic; with the oracle itself, the
// cheapest clean one is best.
var bestCandidates = []edit{
	editMerge | editEarlyWriteBack | editParents,
	editMerge | editParents,
	editMerge,
}

// runBest searches for the cheapest clean program: the oracle's (the row
// of the oracle's run when it ran, else its own run), then each candidate
// edit set; once a candidate is clean, only its subsets are tried (they
// can only leave more to the command processor). It returns the cheapest
// clean row (the oracle's when none is cheaper), its result and how many
// runs it took.
//
// With the expert's program (expert, its clean row expertRow), the search
// also starts from it: its split barriers overlap cache and surface work
// with the work between their halves, which the oracle's just-in-time
// rewrite undoes. The expert's row is a candidate, and each edit set is
// tried on its packets as the reference driver wrote them (no oracle
// rewrite) where the expert kept splits or synchronous copies (elsewhere
// its program is the oracle's start); such a best's Edits start with
// "expert".
func runBest(ctx context.Context, w *Workload, sc *scenario.Scenario, p *hwmodel.Profile, oracleRow *Row, oracleRes hlk.Result,
	expert *scenario.Scenario, expertRow *Row, expertRes hlk.Result) (Row, hlk.Result, int) {
	runs := 0
	if oracleRow == nil {
		r, res := run(ctx, w, sc, p, Oracle, nil)
		oracleRow, oracleRes, runs = &r, res, 1
	}
	best, bestRes, bestEdits := *oracleRow, oracleRes, edit(0)
	var tried []edit
	for _, e := range bestCandidates {
		if slices.ContainsFunc(tried, func(t edit) bool { return t&e == e }) {
			continue // a superset was clean: e's saving is in it
		}
		row, res := runWith(ctx, w, sc, p, Best, bestDriver{Driver: reference.Driver, edits: e})
		runs++
		if !row.Clean() {
			continue
		}
		tried = append(tried, e)
		if row.Cycles < best.Cycles {
			best, bestRes, bestEdits = row, res, e
		}
	}
	label := bestEdits.String()
	if expert != nil && expertRow != nil && expertRow.Clean() {
		if expertRow.Cycles < best.Cycles {
			best, bestRes, label = *expertRow, expertRes, "expert"
		}
		tried = tried[:0]
		// Where the expert kept neither splits nor synchronous copies,
		// its program is the oracle's start, which the runs above edited.
		candidates := bestCandidates
		if len(expertRow.SplitBarriers) == 0 && len(expertRow.CrossListSplits) == 0 && len(expertRow.SyncCopyLists) == 0 {
			candidates = nil
		}
		for _, e := range candidates {
			if slices.ContainsFunc(tried, func(t edit) bool { return t&e == e }) {
				continue
			}
			row, res := runWith(ctx, w, expert, p, Best, bestDriver{Driver: reference.Driver, edits: e, asWritten: true})
			runs++
			if !row.Clean() {
				continue
			}
			tried = append(tried, e)
			if row.Cycles < best.Cycles {
				best, bestRes, label = row, res, "expert+"+e.String()
			}
		}
	}
	best.Strategy, best.BarrierCalls, best.Edits = Best, 0, label
	best.SyncCopyLists, best.SplitBarriers, best.CrossListSplits = nil, nil, nil
	return best, bestRes, runs
}

// bestDriver is the reference driver on a machine whose submissions the
// oracle rewrites, then the edits.
type bestDriver struct {
	hlk.Driver
	edits edit
	// asWritten: the edits apply to the packets as the driver wrote
	// them, without the oracle's rewrite
	asWritten bool
}

func (d bestDriver) Name() string { return "best" }

func (d bestDriver) Open(p *hwmodel.Profile, o hlk.DeviceOptions) (hlk.Device, error) {
	dev, err := d.Driver.Open(p, o)
	if err != nil {
		return nil, err
	}
	or := oracle.Rewriter(nil)
	edits, asWritten := d.edits, d.asWritten
	dev.Machine().SetRewriter(func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		if asWritten {
			return improve(e, bufs, edits)
		}
		out, err := or(e, bufs)
		if err != nil {
			return nil, err
		}
		return improve(e, out, edits)
	})
	return dev, nil
}

// improve applies the edits to one submission's buffers (the oracle's).
func improve(e *hwmodel.Engine, bufs []*cmdbuf.Buffer, edits edit) ([]*cmdbuf.Buffer, error) {
	prof := e.Machine().Profile()
	kind := e.Kind()
	// The writes of the submission, in order, for the last of each range.
	type wr struct {
		n      int // the WORK's ordinal in the submission
		lo, hi uint64
		caches cmdbuf.CacheMask
		u      int // its index in uses
		client cmdbuf.Client
		write  bool
	}
	var writes, uses []wr // uses: every access, writes: the writes
	n := 0
	for _, b := range bufs {
		err := b.Walk(func(_ int, p cmdbuf.Packet, err error) error {
			if err != nil || p.Op() != cmdbuf.OpWork {
				return err
			}
			w := p.Work()
			for i := range w.NumAccesses {
				a := p.Access(i)
				if a.Size == 0 {
					continue
				}
				uses = append(uses, wr{n: n, lo: a.Addr, hi: a.End(), client: a.Client, write: a.Dir != cmdbuf.DirRead})
				if a.Dir == cmdbuf.DirRead {
					continue
				}
				var m cmdbuf.CacheMask
				for _, k := range prof.Path(kind, a.Client) {
					m |= k.Mask()
				}
				writes = append(writes, wr{n, a.Addr, a.End(), m, len(uses) - 1, a.Client, true})
			}
			n++
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// last[n]: the write-backs to issue after WORK n, the last to write
	// their ranges (none when there are too many accesses to compare): a
	// range a later work writes, or reads through caches that do not see
	// the writer's, is left to the oracle's own flushes.
	last := map[int][]wr{}
	if edits&editEarlyWriteBack != 0 && len(uses) <= maxEarlyWrites {
		for _, w := range writes {
			if w.caches == 0 || slices.ContainsFunc(uses[w.u+1:], func(x wr) bool {
				return x.n != w.n && x.lo < w.hi && w.lo < x.hi &&
					(x.write || len(prof.CachesBetween(kind, w.client, kind, x.client)) > 0)
			}) {
				continue
			}
			last[w.n] = append(last[w.n], w)
		}
	}
	out := make([]*cmdbuf.Buffer, len(bufs))
	var words []uint32
	n = 0
	for bi, in := range bufs {
		ob := cmdbuf.NewBuffer(0)
		ob.SetName(in.Name())
		var prevCache *cmdbuf.CacheOp // the CACHE just emitted, not yet written
		prevAsync := false
		var pending []wr // write-backs waiting for the chained work to end
		var stages cmdbuf.StageMask
		flushCache := func() {
			if prevCache != nil {
				ob.Append(cmdbuf.AppendCache(words[:0], *prevCache, prevAsync))
				prevCache = nil
			}
		}
		flushPending := func() {
			if len(pending) == 0 {
				return
			}
			flushCache()
			ob.Append(cmdbuf.AppendWait(words[:0], cmdbuf.Wait{Drain: stages, Hold: cmdbuf.StageBlit.Mask()}))
			for _, w := range pending {
				ob.Append(cmdbuf.AppendCache(words[:0], cmdbuf.CacheOp{Flush: w.caches, Addr: w.lo, Size: w.hi - w.lo}, true))
			}
			pending = pending[:0]
		}
		err := in.Walk(func(_ int, p cmdbuf.Packet, err error) error {
			if err != nil {
				return err
			}
			if p.Op() != cmdbuf.OpWork || !p.Work().Chained {
				flushPending()
				stages = 0
			}
			switch p.Op() {
			case cmdbuf.OpCache:
				c := p.Cache()
				if edits&editMerge != 0 && prevCache != nil && prevAsync == p.Async() && prevCache.Addr == c.Addr && prevCache.Size == c.Size {
					prevCache.Flush |= c.Flush
					prevCache.Invalidate |= c.Invalidate
				} else {
					flushCache()
					prevCache, prevAsync = &c, p.Async()
				}
				if edits&editParents != 0 && !p.Async() && c.Flush != 0 {
					if below := parentsOf(prof, c.Flush); below != 0 {
						flushCache()
						ob.Append(cmdbuf.AppendCache(words[:0], cmdbuf.CacheOp{Flush: below, Addr: c.Addr, Size: c.Size}, true))
					}
				}
				return nil
			case cmdbuf.OpChain:
				return nil // the new buffer chains its own chunks
			}
			flushCache()
			words = append(append(words[:0], uint32(p.Header)), p.Payload...)
			ob.Append(words)
			if p.Op() == cmdbuf.OpWork {
				stages |= p.Work().Stage.Mask()
				pending = append(pending, last[n]...)
				n++
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("buffer %d (%s): %w", bi, in.Name(), err)
		}
		flushCache()
		flushPending()
		out[bi] = ob
	}
	return out, nil
}

// maxEarlyWrites bounds the writes of a submission the early write-back
// compares (each with every later one).
const maxEarlyWrites = 4096

// parentsOf is the caches below those in m, down to memory, that m does
// not name.
func parentsOf(prof *hwmodel.Profile, m cmdbuf.CacheMask) cmdbuf.CacheMask {
	var out cmdbuf.CacheMask
	for k := cmdbuf.Cache(0); k < cmdbuf.NumCaches; k++ {
		if !m.Has(k) {
			continue
		}
		for s, ok := prof.Spec(k); ok && s.Parent != hwmodel.Memory; s, ok = prof.Spec(s.Parent) {
			out |= s.Parent.Mask()
		}
	}
	return out &^ m
}
