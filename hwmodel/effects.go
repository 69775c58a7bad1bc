package hwmodel

import (
	"encoding/binary"

	"github.com/ebref/ebref/cmdbuf"
)

// Effects. Every change an op makes to a line is logged, with the line's
// state before it, while the op is in flight: a reader not ordered after
// the op is shown the state before it (the adversarial model's "work that
// no wait orders after its producer sees memory as it was"). An effect's
// reach is the bytes it may have changed.

// lineEffect is one op's change to a line of one level. Lines an op changed
// alike (the same reach, masks before and no image, or the same dword
// image) share one: a store of a run of whole absent lines costs one
// lineEffect, and one node (fxNode) for the run.
type lineEffect struct {
	reach uint64 // the bytes it covers
	prevV uint64 // valid bits before it (caches)
	prevD uint64 // dirty bits before it (caches)
	gid   uint32 // the op (Machine.ops): no pointer, so the records are not scanned
	// image says where the line's bytes before it are: nowhere (none of
	// the bytes it reaches were valid — a cache's invalid bytes mean
	// nothing, so a store into an absent line keeps no copy — or it changed
	// no byte), in slot prev of the level's undo store, or, for a line whose
	// bytes repeat one dword (what clears write), that dword in prev.
	image  uint8
	prev   uint32
	client cmdbuf.Client
}

// fxNode puts a lineEffect on the chains of n consecutive lines from line
// whose previous node is the same one: a draw over a cleared target's
// block is one node over the clear's, not 64.
type fxNode struct {
	effect uint32 // its index in the block's effects
	// older is the index of the lines' previous node, -1 for their oldest.
	older int32
	line  uint8 // the first line's index in its block
	n     uint8 // how many lines
}

// push puts effect e on line i's chain: onto the last node when it is e's
// and ends just before i over the same older node (and merge is set), else
// a new node.
func (b *fxBlock) push(i uint64, e uint32, merge bool) {
	if k := len(b.nodes) - 1; k >= 0 && merge {
		if last := &b.nodes[k]; last.effect == e && uint64(last.line)+uint64(last.n) == i && last.older == b.newest[i] {
			last.n++
			b.newest[i] = int32(k)
			return
		}
	}
	b.nodes = append(b.nodes, fxNode{effect: e, older: b.newest[i], line: uint8(i), n: 1})
	b.newest[i] = int32(len(b.nodes) - 1)
}

const (
	noImage = iota
	slotImage
	dwordImage
	// encodedImage: the line is a repeated dword as a compressed surface
	// stores it (encode at the line's address): what a clear of one writes,
	// so a draw over a cleared render target keeps a dword, not a slot.
	encodedImage
)

// keepImage records img, the line at la, as what e rolls back to.
func (l *level) keepImage(e *lineEffect, img *[LineSize]byte, la uint64) {
	if w, ok := repeatedDword(img); ok {
		e.image, e.prev = dwordImage, w
		return
	}
	// Decoding the first dwords tells most other lines apart cheaply.
	var plain [LineSize]byte
	copy(plain[:8], img[:8])
	encode(plain[:8], la)
	if binary.LittleEndian.Uint32(plain[:]) == binary.LittleEndian.Uint32(plain[4:]) {
		copy(plain[8:], img[8:])
		encode(plain[8:], la+8)
		if w, ok := repeatedDword(&plain); ok {
			e.image, e.prev = encodedImage, w
			return
		}
	}
	var slot *[LineSize]byte
	e.image = slotImage
	e.prev, slot = l.undo.put()
	*slot = *img
}

// repeatedDword reports whether the line repeats one dword, and which.
func repeatedDword(img *[LineSize]byte) (uint32, bool) {
	w := binary.LittleEndian.Uint64(img[:])
	if uint32(w) != uint32(w>>32) {
		return 0, false
	}
	for o := 8; o < LineSize; o += 8 {
		if binary.LittleEndian.Uint64(img[o:]) != w {
			return 0, false
		}
	}
	return uint32(w), true
}

// imageOf is the image e rolls back to of the line at la (e.image is not
// noImage); buf holds a dword image's bytes.
func (l *level) imageOf(e *lineEffect, buf *[LineSize]byte, la uint64) *[LineSize]byte {
	if e.image == slotImage {
		return l.undo.at(e.prev)
	}
	for o := 0; o < LineSize; o += 4 {
		binary.LittleEndian.PutUint32(buf[o:], e.prev)
	}
	if e.image == encodedImage {
		encode(buf[:], la)
	}
	return buf
}

// undoStore holds the line images effects roll back to, in chunks that are
// never moved, with released slots reused.
type undoStore struct {
	chunks [][]([LineSize]byte)
	used   uint32 // slots handed out from the chunks, reused or not
	free   []uint32
}

const undoChunk = 1024

// put stores a line image and returns its slot.
func (u *undoStore) put() (uint32, *[LineSize]byte) {
	var i uint32
	if n := len(u.free); n > 0 {
		i = u.free[n-1]
		u.free = u.free[:n-1]
	} else {
		if int(u.used) == len(u.chunks)*undoChunk {
			u.chunks = append(u.chunks, make([][LineSize]byte, undoChunk))
		}
		i = u.used
		u.used++
	}
	return i, u.at(i)
}

func (u *undoStore) at(i uint32) *[LineSize]byte { return &u.chunks[i/undoChunk][i%undoChunk] }

// release gives back the slot of e's image, if it has one.
func (u *undoStore) release(e *lineEffect) {
	if e.image == slotImage {
		u.free = append(u.free, e.prev)
	}
}

// reset gives every slot back, keeping the chunks.
func (u *undoStore) reset() {
	u.used = 0
	u.free = u.free[:0]
}

// fxBlock holds the in-flight effects of blockLines lines, oldest first.
// All its lines' nodes share one slice and their effects another, so a
// block costs a few allocations however its records are spread; each
// line's nodes are chained from newest to oldest.
//
// Nodes are appended in order, and a node names a new effect or the last
// one, so the effects the nodes name, in node order, never go down:
// retireEffects compacts both in one pass.
type fxBlock struct {
	effects []lineEffect
	nodes   []fxNode
	newest  [blockLines]int32 // the newest node of each line, -1: none
	// remap is retireEffects' scratch: the new index of each effect.
	remap []int32
}

func newFxBlock() *fxBlock {
	// Small: an op's lines share nodes, and recycled blocks keep what
	// they grew to.
	b := &fxBlock{effects: make([]lineEffect, 0, 2), nodes: make([]fxNode, 0, 4)}
	for i := range b.newest {
		b.newest[i] = -1
	}
	return b
}

// hasEffects reports whether any effect is in flight on the line at la.
func (l *level) hasEffects(la uint64) bool {
	b := l.fxAt(la >> blockShift)
	return b != nil && b.newest[la>>6%blockLines] >= 0
}

// reach is what the in-flight effects on line i of b cover.
func (b *fxBlock) reach(i uint64) uint64 {
	var r uint64
	for k := b.newest[i]; k >= 0; k = b.nodes[k].older {
		r |= b.effects[b.nodes[k].effect].reach
	}
	return r
}

// logEffect records, before op changes them, the bytes reach of the line at
// la of lv.
//
// An op every op still to come is ordered after (a CP op, or anything once
// its engine drained, when no other engine is running) needs no record —
// unless an older record on the line overlaps: then this one is what stops
// that one's roll-back, as in retire.
func (m *Machine) logEffect(op *opRec, client cmdbuf.Client, lv *level, la, reach uint64) {
	m.logChange(op, client, lv, la, reach, true)
}

// logClean is logEffect for a change of a cache line's dirty bits alone (a
// write-back): it keeps no image. Walking a line's records newest to
// oldest (lineView), the bytes a record still rolls back already hold the
// state right after it — its reach is untouched since, or a newer unordered
// record rolled it back to that state — and a record that changed no data
// has the same bytes before and after.
func (m *Machine) logClean(op *opRec, client cmdbuf.Client, lv *level, la, reach uint64) {
	m.logChange(op, client, lv, la, reach, false)
}

func (m *Machine) logChange(op *opRec, client cmdbuf.Client, lv *level, la, reach uint64, data bool) {
	if reach == 0 {
		return
	}
	m.poll()
	k := la >> blockShift
	b := lv.fxAt(k)
	i := la >> 6 % blockLines
	if m.settledOp(op) {
		if b == nil {
			return
		}
		if b.reach(i)&reach == 0 {
			return
		}
	}
	if b != nil && !lv.isMem() {
		if n := b.newest[i]; n >= 0 {
			if top := &b.effects[b.nodes[n].effect]; top.gid == op.gid && top.client == client &&
				top.reach&reach == reach && top.prevV&reach == 0 {
				// The op's own newest record already rolls these bytes
				// back to invalid (it filled the line, then writes it: a
				// dispatch over its UAV). A reader ordered after the op
				// sees neither record, one not ordered after it sees the
				// bytes invalid either way, and an invalid byte's value
				// means nothing: a record of this change, and the image
				// of the line, would roll back nothing anyone can see.
				return
			}
		}
	}
	if b == nil {
		b = lv.addFx(k)
	}
	e := lineEffect{gid: op.gid, client: client, reach: reach}
	if lv.isMem() {
		var img [LineSize]byte
		lv.mem.Read(la, img[:])
		lv.keepImage(&e, &img, la)
		e.prevV = ^uint64(0)
	} else if lb, li := lv.lineAt(la); lb != nil {
		e.prevV, e.prevD = lb.mask(li)
		if data && e.prevV&reach != 0 {
			lv.keepImage(&e, lb.bytes(li), la)
		}
	}
	// An image in a slot is never shared: each slot is its own.
	n := len(b.effects)
	if n == 0 || e.image == slotImage || b.effects[n-1] != e {
		b.effects = append(b.effects, e)
		n++
	}
	b.push(i, uint32(n-1), !m.perLine)
	m.effects.lines++
}

// logAbsent is logEffect for n whole lines from la, in one block, that lv
// holds none of and that have no effect in flight there (readBlock
// before filling them): one effect, and a node for the lines that share
// an older one.
func (m *Machine) logAbsent(op *opRec, client cmdbuf.Client, lv *level, la uint64, n int) {
	m.poll()
	if m.settledOp(op) {
		return // no older record under them, so none is needed
	}
	k := la >> blockShift
	b := lv.fxAt(k)
	if b == nil {
		b = lv.addFx(k)
	}
	b.effects = append(b.effects, lineEffect{gid: op.gid, client: client, reach: ^uint64(0)})
	e := uint32(len(b.effects) - 1)
	for i := la >> 6 % blockLines; n > 0; i, n = i+1, n-1 {
		b.push(i, e, !m.perLine)
		m.effects.lines++
	}
}

// byteMask expands 8 mask bits into 8 byte lanes of 0xff.
var byteMask = func() (t [256]uint64) {
	for v := range t {
		for i := 0; i < 8; i++ {
			if v>>i&1 != 0 {
				t[v] |= 0xff << (8 * i)
			}
		}
	}
	return t
}()

// blend sets the bytes of dst selected by mask to those of src.
func blend(dst, src *[LineSize]byte, mask uint64) {
	if mask == ^uint64(0) {
		*dst = *src
		return
	}
	for w := 0; mask != 0; w, mask = w+1, mask>>8 {
		bm := byteMask[mask&0xff]
		if bm == 0 {
			continue
		}
		d := binary.LittleEndian.Uint64(dst[8*w:])
		s := binary.LittleEndian.Uint64(src[8*w:])
		binary.LittleEndian.PutUint64(dst[8*w:], d&^bm|s&bm)
	}
}
