package hwmodel

import (
	"fmt"
	"strings"

	"github.com/ebref/ebref/cmdbuf"
)

// HazardKind classifies what went wrong.
type HazardKind uint8

// The hazard kinds.
const (
	// HazardReadAfterWrite: a read not ordered after the write it needed
	// (no WAIT on the engine, no fence between engines).
	HazardReadAfterWrite HazardKind = iota
	// HazardWriteAfterRead: a write not ordered after an earlier read of
	// the same bytes.
	HazardWriteAfterRead
	// HazardWriteAfterWrite: two writes of the same bytes whose order
	// nothing fixes, or a flush that retired older data over newer.
	HazardWriteAfterWrite
	// HazardMissingFlush: the write is ordered before the read but still
	// sits in a cache the reader does not look in.
	HazardMissingFlush
	// HazardMissingInvalidate: the reader hit a stale line in one of its
	// caches.
	HazardMissingInvalidate
	// HazardCompressedRead: a client read compressed or cleared bytes it
	// cannot decode.
	HazardCompressedRead
	// HazardCompressedWrite: a client wrote plain bytes into a compressed
	// or cleared block.
	HazardCompressedWrite
	// HazardUninitializedMetadata: compression metadata was read that
	// nothing initialised.
	HazardUninitializedMetadata
	// HazardInvalidateBeforeFlush: a cache was invalidated while it held
	// unflushed writes, or before the flush that would have fed it
	// completed, so the reader refilled stale data.
	HazardInvalidateBeforeFlush
	// HazardUnexplained: the bytes differ from the reference and the model
	// cannot say why (a model bug; tests assert it never appears).
	HazardUnexplained
	NumHazardKinds
)

var hazardNames = [NumHazardKinds]string{"read-after-write", "write-after-read", "write-after-write", "missing-flush",
	"missing-invalidate", "compressed-read", "compressed-write", "uninitialized-metadata", "invalidate-before-flush",
	"unexplained"}

func (k HazardKind) String() string {
	if k < NumHazardKinds {
		return hazardNames[k]
	}
	return fmt.Sprintf("hazard-%d", uint8(k))
}

// ParseHazardKind accepts what String prints.
func ParseHazardKind(s string) (HazardKind, error) {
	for i, n := range hazardNames {
		if n == s {
			return HazardKind(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a hazard kind (%s)", s, strings.Join(hazardNames[:], ", "))
}

// Hazard is one time the model served (or wrote) data a correct program
// could not have seen.
type Hazard struct {
	Kind     HazardKind
	Engine   string
	Batch    int    // submission ordinal on the engine
	Packet   int    // packet ordinal in the submission
	Offset   int    // dword offset in its buffer, as listings print it; -1 at the end of a submission
	Buffer   string // the buffer's name (cmdbuf.Buffer.SetName), if any
	Op       string // what accessed: "COPY read", "DRAW write", "CACHE"
	Marker   string // the last MARKER before the packet
	Addr     uint64
	Size     uint64
	Resource string // the label of Addr, if any
	Earlier  string // the earlier operation it conflicts with, if known
	Fix      string // what packet would have prevented it
	Message  string
}

func (h Hazard) String() string { return h.Message }

type hazardKey struct {
	kind   HazardKind
	op     uint32
	other  uint32
	detail string
}

// addHazard records a hazard, or widens the range of the same hazard (same
// op, kind, earlier op and fix) already recorded; it reports whether the
// hazard is new.
func (m *Machine) addHazard(ctx *opCtx, kind HazardKind, a cmdbuf.Access, addr, size uint64, earlier *opRec, fix string) bool {
	var other uint32
	if earlier != nil {
		other = earlier.gid
	}
	k := hazardKey{kind, ctx.op.gid, other, fix}
	if i, ok := m.hazardKeys[k]; ok {
		h := &m.hazards[i]
		lo, hi := min(h.Addr, addr), max(h.Addr+h.Size, addr+size)
		h.Addr, h.Size = lo, hi-lo
		h.Resource = m.labelOf(lo)
		h.Message = h.render()
		return false
	}
	m.hazardKeys[k] = len(m.hazards)
	e := ctx.e
	op := ctx.op.what
	if op != "CACHE" && op != "end of submission" {
		dir := "read"
		if a.Dir == cmdbuf.DirWrite {
			dir = "write"
		}
		op += " " + dir
	}
	h := Hazard{Kind: kind, Engine: e.name, Batch: ctx.op.batch, Packet: ctx.op.packet, Offset: ctx.op.offset, Buffer: ctx.op.buffer,
		Op: op, Marker: ctx.op.marker, Addr: addr, Size: size, Resource: m.labelOf(addr), Fix: fix}
	if earlier != nil {
		h.Earlier = earlier.describe(m)
	}
	h.Message = h.render()
	m.hazards = append(m.hazards, h)
	e.counters.Hazards++
	return true
}

// render builds the hazard's message from its fields.
func (h *Hazard) render() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s: %s 0x%x+0x%x", h.Kind, h.Op, h.Addr, h.Size)
	if h.Resource != "" {
		fmt.Fprintf(&s, " (%s)", h.Resource)
	}
	switch {
	case h.Offset < 0:
		fmt.Fprintf(&s, " on %s at the end of submission %d", h.Engine, h.Batch)
	case h.Buffer != "":
		fmt.Fprintf(&s, " on %s at dword %d of %s", h.Engine, h.Offset, h.Buffer)
	default:
		fmt.Fprintf(&s, " on %s at dword %d", h.Engine, h.Offset)
	}
	if h.Marker != "" {
		fmt.Fprintf(&s, " [%s]", h.Marker)
	}
	if h.Earlier != "" {
		switch h.Kind {
		case HazardReadAfterWrite:
			fmt.Fprintf(&s, " while %s still writes it", h.Earlier)
		case HazardWriteAfterRead:
			fmt.Fprintf(&s, " while %s may still read it", h.Earlier)
		case HazardWriteAfterWrite:
			fmt.Fprintf(&s, " races %s", h.Earlier)
		case HazardMissingFlush:
			fmt.Fprintf(&s, " misses what %s wrote", h.Earlier)
		case HazardMissingInvalidate, HazardInvalidateBeforeFlush:
			if h.Op == "CACHE" {
				fmt.Fprintf(&s, " dropped what %s wrote", h.Earlier)
			} else {
				fmt.Fprintf(&s, " read a stale copy of what %s wrote", h.Earlier)
			}
		}
	}
	if h.Fix != "" {
		fmt.Fprintf(&s, "; %s", h.Fix)
	}
	return s.String()
}

// classifyRead explains the bytes of a read that differ from the reference,
// grouping neighbouring bytes with the same explanation into one hazard.
// For each such byte it takes the op that last wrote it in the reference and
// asks, in order: is the reader ordered after that write? does a cache the
// reader looked in hold a stale copy while the write is visible below it? is
// the write still dirty in a cache the reader does not look in? One hazard
// covers the first to the last byte with the same answer. Bytes already
// explained by a compression hazard, and bytes an op wrote from inputs that
// were already wrong (its own hazard was recorded), are skipped.
func (m *Machine) classifyRead(ctx *opCtx, a cmdbuf.Access, path []*level, got, ref []byte, pr *pathRead, explained []bool) {
	type finding struct {
		kind    HazardKind
		earlier *opRec
		fix     fixNote
	}
	type span struct{ lo, hi int }
	var order []finding
	spans := map[finding]*span{}
	for i := range got {
		if got[i] == ref[i] || explained != nil && explained[i] {
			continue
		}
		f := m.explainByte(ctx, a, path, a.Addr+uint64(i), ref[i], pr.served(a.Addr+uint64(i)))
		fd := finding(f)
		if s, ok := spans[fd]; ok {
			s.hi = i
			continue
		}
		spans[fd] = &span{i, i}
		order = append(order, fd)
	}
	for _, fd := range order {
		if fd.kind == NumHazardKinds {
			continue
		}
		s := spans[fd]
		m.addHazard(ctx, fd.kind, a, a.Addr+uint64(s.lo), uint64(s.hi-s.lo+1), fd.earlier, fd.fix.text(ctx))
	}
}

type explanation struct {
	kind    HazardKind // NumHazardKinds: a consequence of an earlier hazard, not a new one
	earlier *opRec
	fix     fixNote
}

// fixNote is what would have avoided a hazard, kept as its parts and
// written out once per hazard, not once per byte explained: a read of
// stale bytes explains each of them.
type fixNote struct {
	kind   fixKind
	s1, s2 string // level or engine names, or the whole text (fixText)
	stage  cmdbuf.StageMask
}

type fixKind uint8

const (
	fixText            fixKind = iota // s1
	fixFence                          // no fence orders engine s1 before the op on s2
	fixWait                           // a WAIT draining stage before the op
	fixInvalAfterFlush                // s1 invalidated before the data reached s2
	fixInvalidate                     // invalidating s1 before the op
	fixFlushOther                     // flushing s1 before what orders engine s2 before the op
	fixFlush                          // flushing s1 before the op
)

func (f fixNote) text(ctx *opCtx) string {
	switch f.kind {
	case fixFence:
		return fmt.Sprintf("no fence orders %s before %s on %s", f.s1, ctx.op.at(), f.s2)
	case fixWait:
		return fmt.Sprintf("a WAIT draining %s before %s would order them", f.stage, ctx.op.at())
	case fixInvalAfterFlush:
		return fmt.Sprintf("%s was invalidated before the data reached %s: invalidate it after the flush", f.s1, f.s2)
	case fixInvalidate:
		return fmt.Sprintf("invalidating %s before %s would drop the stale line", f.s1, ctx.op.at())
	case fixFlushOther:
		return fmt.Sprintf("flushing %s before what orders %s before %s would write it back", f.s1, f.s2, ctx.op.at())
	case fixFlush:
		return fmt.Sprintf("flushing %s before %s would write it back", f.s1, ctx.op.at())
	}
	return f.s1
}

func (m *Machine) explainByte(ctx *opCtx, a cmdbuf.Access, path []*level, addr uint64, want byte, served int8) explanation {
	e := ctx.e
	w := m.ops[m.ref.writer(addr)]
	if w == nil {
		for _, sp := range m.spoiled {
			if addr >= sp[0] && addr < sp[1] {
				return explanation{NumHazardKinds, nil, fixNote{}}
			}
		}
		return explanation{HazardUnexplained, nil, fixNote{s1: "the reference's value comes from no GPU op"}}
	}
	wc := a.Client
	if w.writeClients&(1<<a.Client) == 0 {
		wc = w.firstWriteClient()
	}
	if !m.orderedBefore(w, wc, ctx) {
		if w.engine != e.id {
			return explanation{HazardReadAfterWrite, w, fixNote{kind: fixFence, s1: m.engines[w.engine].name, s2: e.name}}
		}
		return explanation{HazardReadAfterWrite, w, fixNote{kind: fixWait, stage: w.stage.Mask()}}
	}
	// Ordered. If the writer's own output was already wrong (an earlier
	// hazard), the right value is nowhere to be found: a consequence.
	if w.tainted {
		return explanation{NumHazardKinds, w, fixNote{}}
	}
	// Is the right value visible below the level that served?
	var b [1]byte
	var v [1]uint64
	for j := int(served) + 1; j < len(path); j++ {
		m.view(ctx, path[j], addr, b[:], v[:], nil)
		if (path[j].isMem() || v[0]&1 != 0) && m.plainAt(ctx, addr, b[0]) == want {
			stale := path[served]
			if stale.lastInval > w.gid {
				return explanation{HazardInvalidateBeforeFlush, w, fixNote{kind: fixInvalAfterFlush, s1: stale.name, s2: path[j].name}}
			}
			return explanation{HazardMissingInvalidate, w, fixNote{kind: fixInvalidate, s1: stale.name}}
		}
	}
	// Is it stuck, dirty, in a cache the reader does not look in (as the
	// reader may see that cache: a flush the reader is not ordered after
	// has not happened for it)?
	var dv [1]uint64
	for _, lv := range m.allLevels() {
		if lv.isMem() {
			continue
		}
		m.view(ctx, lv, addr, b[:], v[:], dv[:])
		if v[0]&1 != 0 && dv[0]&1 != 0 && m.plainAt(ctx, addr, b[0]) == want {
			if lv.engine >= 0 && lv.engine != e.id {
				return explanation{HazardMissingFlush, w, fixNote{kind: fixFlushOther, s1: lv.name, s2: m.engines[lv.engine].name}}
			}
			return explanation{HazardMissingFlush, w, fixNote{kind: fixFlush, s1: lv.name}}
		}
	}
	return explanation{HazardUnexplained, w, fixNote{s1: "the written data is nowhere the reader could find it"}}
}

func (o *opRec) firstWriteClient() cmdbuf.Client {
	for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
		if o.writeClients&(1<<c) != 0 {
			return c
		}
	}
	return cmdbuf.ClientBlit
}
