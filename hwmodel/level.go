package hwmodel

import (
	"encoding/binary"
	"iter"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/ebref/ebref/cmdbuf"
)

// LineSize is the cache line size in bytes: one bit of a uint64 mask per
// byte, so a line's valid and dirty bytes are one word each.
const LineSize = 64

// Caches keep their lines, and every level its in-flight effects, in blocks
// of blockLines consecutive lines (4 KiB), so one map lookup serves 64 lines.
const (
	blockShift = 12
	blockLines = 1 << blockShift / LineSize
)

// line is the state of one cache line: which of its bytes are valid, which
// dirty. Its bytes are in its block's data.
type line struct {
	valid uint64
	dirty uint64
}

// lineBlock is blockLines consecutive lines of a cache. held marks the lines
// holding any valid byte (the others are absent), dirty those holding a
// dirty byte. Its bytes may be shared with another level (share.go).
//
// Most blocks hold whole lines: every byte valid, and every byte dirty or
// none. Until a held line is otherwise, the block keeps no masks (part is
// false) and a held line's masks follow from its bits: valid whole, dirty
// whole if its dirty bit is set. Likewise its lines' tags are one tag until
// one differs. A frame's 150,000 blocks keep 1.3 KiB less each.
type lineBlock struct {
	data   *lineData // nil until a line is stored or filled
	masks  *[blockLines]line
	tags   *[blockLines]uint32
	held   uint64
	dirty  uint64
	tag    uint32 // every line's tag, unless tagged
	part   bool   // masks holds the lines' masks
	tagged bool   // tags holds the lines' tags
	shared bool   // data may be another holder's too
}

// A line's tag is the gid of the last op whose data was stored into it (a
// heuristic for explaining hazards; views ignore it).

// bytes is line i's bytes, to read.
func (b *lineBlock) bytes(i uint) *[LineSize]byte { return &b.data[i] }

// mask returns held line i's valid and dirty bytes.
func (b *lineBlock) mask(i uint) (valid, dirty uint64) {
	if b.part {
		return b.masks[i].valid, b.masks[i].dirty
	}
	return ^uint64(0), -(b.dirty >> i & 1)
}

// setMask sets line i's valid and dirty bytes. The caller keeps its dirty
// bit (markDirty, markClean), which a block without masks reads its
// lines' dirty bytes from: it must agree with dirty being set.
func (b *lineBlock) setMask(i uint, valid, dirty uint64) {
	if !b.part {
		if valid == ^uint64(0) && (dirty == 0 || dirty == ^uint64(0)) {
			return
		}
		if b.masks == nil {
			b.masks = new([blockLines]line)
		}
		for j := range uint(blockLines) {
			b.masks[j] = line{}
			if b.held>>j&1 != 0 {
				b.masks[j].valid, b.masks[j].dirty = b.mask(j)
			}
		}
		b.part = true
	}
	b.masks[i] = line{valid, dirty}
}

// wholeDirty reports whether every line of b is held, valid and dirty.
func (b *lineBlock) wholeDirty() bool {
	if b.held != ^uint64(0) || b.dirty != ^uint64(0) {
		return false
	}
	if !b.part {
		return true // held and dirty lines without masks are whole
	}
	for _, ln := range b.masks {
		if ln != (line{^uint64(0), ^uint64(0)}) {
			return false
		}
	}
	return true
}

// tagOf returns line i's tag.
func (b *lineBlock) tagOf(i uint) uint32 {
	if b.tagged {
		return b.tags[i]
	}
	return b.tag
}

// setTag sets line i's tag. The lines share one tag while they agree: a
// block whose only held line is i takes gid as its one tag, and the block's
// last line set to what every held line has makes it one tag again (a run
// of stores over lines an earlier op wrote). Only held lines' tags matter:
// a line taken into a cache is given its tag.
func (b *lineBlock) setTag(i uint, gid uint32) {
	if b.held&^(1<<i) == 0 {
		b.tag, b.tagged = gid, false
		return
	}
	if !b.tagged {
		if gid == b.tag {
			return
		}
		if b.tags == nil {
			b.tags = new([blockLines]uint32)
		}
		for j := range b.tags {
			b.tags[j] = b.tag
		}
		b.tagged = true
	}
	b.tags[i] = gid
	if i == blockLines-1 && b.tagsAre(gid) {
		b.tag, b.tagged = gid, false
	}
}

// tagsAre reports whether every held line's tag is gid.
func (b *lineBlock) tagsAre(gid uint32) bool {
	for h := b.held; h != 0; h &= h - 1 {
		if b.tags[bits.TrailingZeros64(h)] != gid {
			return false
		}
	}
	return true
}

// level is one place bytes can live: a cache instance or memory.
type level struct {
	id     uint8        // the machine's count of levels when it was made: memory 0
	kind   cmdbuf.Cache // Memory for the memory level
	engine int          // owning engine; -1 for shared caches and memory
	name   string
	parent *level
	blocks map[uint64]*lineBlock // caches only, by address >> blockShift
	mem    *Mem                  // memory only
	store  *dataStore            // the machine's, for line blocks' bytes
	// fx holds the in-flight effects on this level's lines.
	fx map[uint64]*fxBlock
	// undo holds the line images the effects roll back to.
	undo undoStore
	// lastInval is the gid of the last op that invalidated this cache.
	lastInval uint32
	// One-entry lookup caches, of absent blocks too: accesses are mostly
	// sequential. Whatever adds or deletes a block updates them.
	lastBlkKey, lastFxKey uint64
	lastBlk               *lineBlock
	lastFx                *fxBlock
	lastBlkOK, lastFxOK   bool
	// dirtyBlocks counts the blocks holding a dirty line; spare recycles
	// emptied blocks.
	dirtyBlocks int
	spare       []*lineBlock
	spareFx     []*fxBlock
	// keys is heldLines' scratch, reused call to call.
	keys []uint64
}

// takeSpare takes the last of the recycled blocks in spare, or a new one.
func takeSpare[T any](spare *[]*T, newT func() *T) *T {
	if n := len(*spare); n > 0 {
		b := (*spare)[n-1]
		*spare = (*spare)[:n-1]
		return b
	}
	return newT()
}

// addFx adds an empty effect block with key k (which has none).
func (l *level) addFx(k uint64) *fxBlock {
	b := takeSpare(&l.spareFx, newFxBlock)
	l.fx[k] = b
	l.lastFxKey, l.lastFx, l.lastFxOK = k, b, true
	return b
}

// dropFx removes the (empty) effect block with key k, keeping it for reuse.
func (l *level) dropFx(k uint64, b *fxBlock) {
	delete(l.fx, k)
	l.lastFxKey, l.lastFx, l.lastFxOK = k, nil, true
	l.spareFx = append(l.spareFx, b)
}

// markDirty notes that line i of block b holds dirty bytes.
func (l *level) markDirty(b *lineBlock, i uint) {
	if b.dirty == 0 {
		l.dirtyBlocks++
	}
	b.dirty |= 1 << i
}

// markClean notes that line i of block b holds no dirty byte.
func (l *level) markClean(b *lineBlock, i uint) {
	if b.dirty>>i&1 == 0 {
		return
	}
	b.dirty &^= 1 << i
	if b.dirty == 0 {
		l.dirtyBlocks--
	}
}

// block returns the line block with key k, or nil.
func (l *level) block(k uint64) *lineBlock {
	if l.lastBlkOK && l.lastBlkKey == k {
		return l.lastBlk
	}
	b := l.blocks[k]
	l.lastBlkKey, l.lastBlk, l.lastBlkOK = k, b, true
	return b
}

// fxAt returns the effect block with key k, or nil.
func (l *level) fxAt(k uint64) *fxBlock {
	if l.lastFxOK && l.lastFxKey == k {
		return l.lastFx
	}
	b := l.fx[k]
	l.lastFxKey, l.lastFx, l.lastFxOK = k, b, true
	return b
}

func newCacheLevel(id uint8, kind cmdbuf.Cache, engine int, name string, parent *level) *level {
	return &level{id: id, kind: kind, engine: engine, name: name, parent: parent, store: parent.store,
		blocks: map[uint64]*lineBlock{}, fx: map[uint64]*fxBlock{}}
}

func newMemLevel(mem *Mem) *level {
	return &level{id: 0, kind: Memory, engine: -1, name: "memory", mem: mem, store: mem.store, fx: map[uint64]*fxBlock{}}
}

func (l *level) isMem() bool { return l.mem != nil }

func (l *level) String() string { return l.name }

// lineAt returns the block holding the cache line at line address la and
// the line's index in it, or a nil block if the cache holds none of the
// line's bytes.
func (l *level) lineAt(la uint64) (*lineBlock, uint) {
	b := l.block(la >> blockShift)
	i := uint(la >> 6 % blockLines)
	if b == nil || b.held>>i&1 == 0 {
		return nil, 0
	}
	return b, i
}

// touch returns the block and index of the line at la, making the block's
// data the block's own and the line present if it is not: then fresh is
// true, its bytes are zero, and the caller sets its masks and tag (an empty
// line has no masks of its own: the caller gives it some valid bytes).
func (l *level) touch(la uint64) (b *lineBlock, i uint, fresh bool) {
	k := la >> blockShift
	b = l.block(k)
	if b == nil {
		b = l.newBlock(k)
	}
	i = uint(la >> 6 % blockLines)
	d := l.store.own(&b.data, &b.shared)
	if b.held>>i&1 == 0 {
		d[i] = [LineSize]byte{}
		b.held |= 1 << i
		fresh = true
	}
	return b, i, fresh
}

// newBlock adds an empty line block with key k (which has none): no masks,
// tag 0.
func (l *level) newBlock(k uint64) *lineBlock {
	b := takeSpare(&l.spare, func() *lineBlock { return new(lineBlock) })
	b.part, b.tagged, b.tag = false, false, 0
	l.blocks[k] = b
	l.lastBlkKey, l.lastBlk, l.lastBlkOK = k, b, true
	return b
}

// dropBlock removes the emptied block b (key k), keeping it for reuse, with
// its bytes if no one else may hold them.
func (l *level) dropBlock(k uint64, b *lineBlock) {
	delete(l.blocks, k)
	l.lastBlkKey, l.lastBlk, l.lastBlkOK = k, nil, true
	if b.shared {
		l.store.drop(&b.data, &b.shared)
	}
	l.spare = append(l.spare, b)
}

// drop removes the line at la (which must be held).
func (l *level) drop(la uint64) {
	k := la >> blockShift
	b := l.block(k)
	i := uint(la >> 6 % blockLines)
	b.held &^= 1 << i
	l.markClean(b, i)
	if b.held == 0 {
		l.dropBlock(k, b)
	}
}

// state returns the present content of the line at la: memory's bytes (all
// valid, none dirty), or a cache's line (nothing valid if absent).
func (l *level) state(la uint64) (data [LineSize]byte, valid, dirty uint64) {
	if l.isMem() {
		l.mem.Read(la, data[:])
		return data, ^uint64(0), 0
	}
	if b, i := l.lineAt(la); b != nil {
		valid, dirty = b.mask(i)
		return *b.bytes(i), valid, dirty
	}
	return data, 0, 0
}

// heldLines yields the held lines of a cache overlapping [addr, addr+size)
// (size 0: all) in ascending address order; dirtyOnly keeps the lines with
// a dirty byte. The caller may drop or clean the line it is given (but
// must not add lines).
func (l *level) heldLines(addr, size uint64, dirtyOnly bool) iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		for k, set := range l.heldBlocks(addr, size, dirtyOnly) {
			for ; set != 0; set &= set - 1 {
				if !yield(k<<blockShift + uint64(bits.TrailingZeros64(set))*LineSize) {
					return
				}
			}
		}
	}
}

// heldBlocks is heldLines a block at a time: the key of each block holding
// such lines and the mask of them. The blocks are listed first; each
// block's mask is read when it is reached, so the caller may drop or clean
// the lines it is given.
func (l *level) heldBlocks(addr, size uint64, dirtyOnly bool) iter.Seq2[uint64, uint64] {
	return func(yield func(uint64, uint64) bool) {
		if len(l.blocks) == 0 || dirtyOnly && l.dirtyBlocks == 0 {
			return
		}
		keys := l.keys[:0]
		if size != 0 && (size+LineSize)>>blockShift+2 < uint64(len(l.blocks)) {
			for k := addr >> blockShift; k <= (addr+size-1)>>blockShift; k++ {
				if l.blocks[k] != nil {
					keys = append(keys, k)
				}
			}
		} else {
			for k := range l.blocks {
				keys = append(keys, k)
			}
			slices.Sort(keys)
		}
		l.keys = keys
		for _, k := range keys {
			b := l.blocks[k]
			if b == nil {
				continue
			}
			set := b.held
			if dirtyOnly {
				set = b.dirty
			}
			if size != 0 {
				set &= linesIn(k, addr, size)
			}
			if set != 0 && !yield(k, set) {
				return
			}
		}
	}
}

// linesIn is the mask of the lines of block k overlapping [addr, addr+size).
func linesIn(k, addr, size uint64) uint64 {
	lo, hi := k<<blockShift, (k+1)<<blockShift
	lo, hi = max(lo, addr), min(hi, addr+size)
	if lo >= hi {
		return 0
	}
	first, last := lo>>6%blockLines, (hi-1)>>6%blockLines
	return spanMask(int(first), int(last-first+1))
}

// dropClean drops the lines of block b (key k) in set, none of them dirty,
// and returns how many it dropped. Every held line holds a valid byte
// (touch's callers all store or fill some), so invalidateLine would drop
// each of them.
func (l *level) dropClean(k uint64, b *lineBlock, set uint64) (dropped uint64) {
	b.held &^= set
	if b.held == 0 {
		l.dropBlock(k, b)
	}
	return uint64(bits.OnesCount64(set))
}

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

// lineView is the line at la of lv as the op in rc may see it: the present
// state, except that the effects of ops not ordered before rc are undone.
// Walking the effects newest to oldest, one of an op ordered before rc
// settles the bytes it reaches (they are at least as new as right after
// it); an unordered one rolls the bytes it reaches that are not settled yet
// back to before it.
func (m *Machine) lineView(rc *opCtx, lv *level, la uint64) (data [LineSize]byte, valid, dirty uint64) {
	data, valid, dirty = lv.state(la)
	b := lv.fxAt(la >> blockShift)
	if b == nil {
		return data, valid, dirty
	}
	var settled uint64
	for k := b.newest[la>>6%blockLines]; k >= 0 && settled != ^uint64(0); k = b.nodes[k].older {
		e := &b.effects[b.nodes[k].effect]
		mask := e.reach &^ settled
		if mask == 0 {
			continue
		}
		if m.orderedBefore(m.ops[e.gid], e.client, rc) {
			settled |= mask
			continue
		}
		if e.image != noImage {
			var buf [LineSize]byte
			blend(&data, lv.imageOf(e, &buf, la), mask)
		}
		if !lv.isMem() {
			valid = valid&^mask | e.prevV&mask
			dirty = dirty&^mask | e.prevD&mask
		}
	}
	return data, valid, dirty
}

// spanMask is the mask of bytes [off, off+k) of a line.
func spanMask(off, k int) uint64 {
	if k >= 64 {
		return ^uint64(0)
	}
	return (uint64(1)<<k - 1) << off
}

// lineSpans calls f for each line [addr, addr+n) touches, with the line
// address, the offset of addr in it, and how many bytes of the range it
// holds; i is the index of the line's first byte in the range.
func lineSpans(addr uint64, n int, f func(la uint64, off, k, i int)) {
	for i := 0; i < n; {
		a := addr + uint64(i)
		la := a &^ (LineSize - 1)
		off := int(a - la)
		k := min(LineSize-off, n-i)
		f(la, off, k, i)
		i += k
	}
}

// view fills val and valid (and dirty, if not nil) with the bytes
// [addr, addr+len(val)) of lv as the op in rc may see them (lineView);
// valid and dirty are bitsets indexed from addr.
func (m *Machine) view(rc *opCtx, lv *level, addr uint64, val []byte, valid, dirty []uint64) {
	clear(valid)
	clear(dirty)
	lineSpans(addr, len(val), func(la uint64, off, k, i int) {
		d, v, dt := m.lineView(rc, lv, la)
		copy(val[i:i+k], d[off:off+k])
		orBits(valid, i, v>>off, k)
		if dirty != nil {
			orBits(dirty, i, dt>>off, k)
		}
	})
}

// current fills val and valid (and dirty, if not nil) with lv's present
// state of [addr, addr+len(val)).
func (m *Machine) current(lv *level, addr uint64, val []byte, valid, dirty []uint64) {
	clear(valid)
	clear(dirty)
	if lv.isMem() {
		lv.mem.Read(addr, val)
		for i := range val {
			valid[i/64] |= 1 << (i % 64)
		}
		return
	}
	lineSpans(addr, len(val), func(la uint64, off, k, i int) {
		d, v, dt := lv.state(la)
		copy(val[i:i+k], d[off:off+k])
		orBits(valid, i, v>>off, k)
		if dirty != nil {
			orBits(dirty, i, dt>>off, k)
		}
	})
}

// orBits ors the low k bits of v into bitset s at bit i.
func orBits(s []uint64, i int, v uint64, k int) {
	if k < 64 {
		v &= uint64(1)<<k - 1
	}
	if v == 0 {
		return
	}
	s[i/64] |= v << (i % 64)
	if i%64 != 0 && i/64+1 < len(s) {
		s[i/64+1] |= v >> (64 - i%64)
	}
}

func bit(s []uint64, i int) bool { return s[i/64]>>(i%64)&1 != 0 }

// store writes src at lv (marking cache bytes valid and dirty), logging the
// prior state as op's effect first. A work's data write (data) also tags
// the lines with the op and is logged for write-after-write checks.
func (m *Machine) store(op *opRec, client cmdbuf.Client, lv *level, addr uint64, src []byte, data bool) {
	if data {
		m.effects.addAccess(access{op: op, lv: lv, addr: addr, n: len(src), kind: accessWrite, client: client})
	}
	for len(src) > 0 {
		k := addr >> blockShift
		n := int(min(addr+uint64(len(src)), (k+1)<<blockShift) - addr)
		if !m.perLine && !lv.isMem() && addr%LineSize == 0 && n%LineSize == 0 && lv.block(k) == nil && lv.fxAt(k) == nil {
			m.storeAbsent(op, client, lv, addr, src[:n], data)
		} else {
			m.storeLines(op, client, lv, addr, src[:n], data)
		}
		addr, src = addr+uint64(n), src[n:]
	}
}

// storeAbsent is store for whole lines of one block that the cache holds
// none of and that have no effect in flight there: one effect for them all
// (logAbsent), and the lines written in place into a new block.
func (m *Machine) storeAbsent(op *opRec, client cmdbuf.Client, lv *level, la uint64, src []byte, data bool) {
	n := len(src) / LineSize
	m.logAbsent(op, client, lv, la, n)
	b := lv.newBlock(la >> blockShift)
	var tag uint32
	if data {
		tag = op.gid
	}
	first := uint(la >> 6 % blockLines)
	d := lv.store.own(&b.data, &b.shared)
	copy(unsafe.Slice(&d[first][0], n*LineSize), src)
	b.tag = tag // a new block: its lines whole, all tagged alike
	mask := spanMask(int(first), n)
	b.held |= mask
	if b.dirty == 0 {
		lv.dirtyBlocks++
	}
	b.dirty |= mask
}

// storeLines is store a line at a time.
func (m *Machine) storeLines(op *opRec, client cmdbuf.Client, lv *level, addr uint64, src []byte, data bool) {
	lineSpans(addr, len(src), func(la uint64, off, k, i int) {
		mask := spanMask(off, k)
		m.logEffect(op, client, lv, la, mask)
		if lv.isMem() {
			lv.mem.Write(la+uint64(off), src[i:i+k])
			return
		}
		b, li, fresh := lv.touch(la)
		copy(b.data[li][off:off+k], src[i:i+k])
		var valid, dirty uint64
		if !fresh {
			valid, dirty = b.mask(li)
		}
		b.setMask(li, valid|mask, dirty|mask)
		lv.markDirty(b, li)
		if data {
			b.setTag(li, op.gid)
		} else if fresh {
			b.setTag(li, 0)
		}
	})
}

// fill puts clean bytes into a cache where it holds none (a read's line
// fill): the bytes of mask not yet valid take src's, logged as op's effect.
func (m *Machine) fill(op *opRec, client cmdbuf.Client, lv *level, la uint64, src *[LineSize]byte, mask uint64) {
	var add uint64 = mask
	if b, i := lv.lineAt(la); b != nil {
		valid, _ := b.mask(i)
		add &^= valid
	}
	if add == 0 {
		return
	}
	m.logEffect(op, client, lv, la, add)
	b, i, fresh := lv.touch(la)
	blend(&b.data[i], src, add)
	var valid, dirty uint64
	if !fresh {
		valid, dirty = b.mask(i)
	} else {
		b.setTag(i, 0)
	}
	b.setMask(i, valid|add, dirty)
}

// pathRead is what readPath served: for each line of the line-aligned
// neighbourhood, which bytes each level of the path served. It lives in
// scratch space until the next readPath.
type pathRead struct {
	base   uint64   // first line address
	levels int      // levels in the path
	takes  []uint64 // takes[line*levels+j]: bytes level j served
}

// served is the index in the path of the level that served byte addr.
func (r *pathRead) served(addr uint64) int8 {
	li := int((addr - r.base) / LineSize)
	bit := (addr - r.base) % LineSize
	for j := 0; j < r.levels; j++ {
		if r.takes[li*r.levels+j]>>bit&1 != 0 {
			return int8(j)
		}
	}
	return -1
}

// readPath reads [addr, addr+len(dst)) as the op in rc sees it through path
// (nearest cache first, memory last) into dst. Whole lines are read, and
// every cache above the level a byte came from is filled with it, as a real
// cache fills lines. It returns which level served what.
func (m *Machine) readPath(rc *opCtx, client cmdbuf.Client, path []*level, addr uint64, dst []byte) pathRead {
	first := addr &^ (LineSize - 1)
	end := (addr + uint64(len(dst)) + LineSize - 1) &^ (LineSize - 1)
	nl := int((end - first) / LineSize)
	r := pathRead{base: first, levels: len(path), takes: m.scratch.takes(nl * len(path))}
	// Lines are assembled in place when dst is exactly whole lines (a
	// scratch buffer of the op's, like the line scratch), and in the line
	// scratch otherwise, then copied.
	aligned := len(dst) > 0 && addr == first && uint64(len(dst)) == end-first
	var lines [][LineSize]byte
	if aligned {
		lines = unsafe.Slice((*[LineSize]byte)(dst), nl)
	} else {
		lines = m.scratch.lines(nl)
	}
	for li := 0; li < nl; li++ {
		la := first + uint64(li)*LineSize
		if i := la >> 6 % blockLines; i == 0 || li == 0 {
			// The first line of a block: try the block's lines at once.
			n := min(nl-li, int(blockLines-i))
			if m.readBlock(rc, client, path, la, lines[li:li+n], r.takes[li*len(path):(li+n)*len(path)]) {
				li += n - 1
				continue
			}
		}
		need := ^uint64(0)
		var below uint64 // bytes served by levels below the current one
		takes := r.takes[li*len(path) : (li+1)*len(path)]
		for j, lv := range path {
			if need == 0 {
				break
			}
			d, v, _ := m.lineView(rc, lv, la)
			takes[j] = v & need
			blend(&lines[li], &d, takes[j])
			need &^= takes[j]
		}
		// Fill each cache with the bytes that came from below it (walking
		// up, below accumulates what the deeper levels served).
		for j := len(path) - 1; j >= 0; j-- {
			if !path[j].isMem() && below != 0 {
				m.fill(rc.op, client, path[j], la, &lines[li], below)
			}
			below |= takes[j]
		}
	}
	if !aligned && len(dst) > 0 { // the lines are consecutive in the scratch: one copy
		copy(dst, unsafe.Slice(&lines[0][0], nl*LineSize)[addr-first:])
	}
	return r
}

// readBlock is readPath for lines of one block (starting at la, as many
// as lines holds) that one level serves whole, as it is: the caches above
// it in the path hold none of the block and have no effect in flight
// there, it holds every byte of the lines (memory always does), and the op
// is ordered after every effect in flight there. Each cache above is
// filled with all of it, deepest first, logging one effect for its lines
// (logAbsent) as a fill of each line would. It reports false, doing
// nothing, when that is not the case.
func (m *Machine) readBlock(rc *opCtx, client cmdbuf.Client, path []*level, la uint64, lines [][LineSize]byte, takes []uint64) bool {
	if m.perLine {
		return false
	}
	k := la >> blockShift
	first := uint(la >> 6 % blockLines)
	mask := spanMask(int(first), len(lines))
	h := 0 // the level that serves
	for ; h < len(path); h++ {
		lv := path[h]
		fx, b := lv.fxAt(k), lv.block(k)
		if lv.isMem() || b != nil {
			// The serving level: as it is, if what is in flight there is
			// all ordered before the op (lineView rolls nothing back).
			if fx != nil && !m.seesAsIs(rc, fx) {
				return false
			}
			break
		}
		if fx != nil {
			return false
		}
	}
	if b := path[h].block(k); b != nil {
		if b.held&mask != mask {
			return false
		}
		for i := range uint(len(lines)) {
			if valid, _ := b.mask(first + i); valid != ^uint64(0) {
				return false
			}
		}
	}
	// A whole block's bytes are shared (copy on write): the serving level
	// lends them to every cache it fills.
	whole := len(lines) == blockLines
	lend := func() *lineData { return path[h].mem.lend(la) }
	if lv := path[h]; lv.isMem() {
		// The lines are consecutive in memory and in the slice: one read.
		lv.mem.Read(la, unsafe.Slice(&lines[0][0], len(lines)*LineSize))
	} else {
		b := lv.block(k)
		copy(lines, b.data[first:])
		lend = func() *lineData { return b.lend(lv.store) }
	}
	for i := range lines {
		takes[i*len(path)+h] = ^uint64(0)
	}
	for j := h - 1; j >= 0; j-- {
		lv := path[j]
		m.logAbsent(rc.op, client, lv, la, len(lines))
		b := lv.newBlock(k)
		if whole {
			b.share(lv.store, lend())
		} else {
			copy(lv.store.own(&b.data, &b.shared)[first:], lines)
		}
		b.held |= mask // a new block: its lines whole and clean, tag 0
	}
	return true
}

// seesAsIs reports whether the op in rc is ordered after every effect in
// flight in b, so that it sees each line of the block as it is. An op's
// records of a block are mostly one after another (a line each when they
// keep their bytes), so a record of the op and client just found ordered
// is not asked again.
func (m *Machine) seesAsIs(rc *opCtx, b *fxBlock) bool {
	var gid uint32 // 0: no op (gids start at 1)
	var client cmdbuf.Client
	for i := range b.effects {
		e := &b.effects[i]
		if e.gid == gid && e.client == client {
			continue
		}
		if !m.orderedBefore(m.ops[e.gid], e.client, rc) {
			return false
		}
		gid, client = e.gid, e.client
	}
	return true
}

// scratch holds buffers reused across reads: the model runs on one
// goroutine.
type scratch struct {
	// readMeta and writeMeta are decodeRead's and writeSurface's; pend is
	// writeSurface's whole blocks (writePartialBlock stores them first);
	// nodes is retireEffects' output for a block.
	readMeta, writeMeta metaReader
	pend                []byte
	nodes               []fxNode
	takeBuf             []uint64
	lineBuf             [][LineSize]byte
	// block holds one compression block being encoded.
	block [BlockSize]byte
	// cuts and mergeFx are mergeEffects' cut points and output records.
	cuts    [MaxEngines][]uint64
	mergeFx []lineEffect
	// opBuf is a bump allocator for the byte buffers of one op (what its
	// reads return), reset when the next op is issued.
	opBuf []byte
	gen   int // counts the arrays opBuf had
}

// arenaMark is a position in the op arena.
type arenaMark struct{ gen, n int }

func (s *scratch) mark() arenaMark { return arenaMark{s.gen, len(s.opBuf)} }

// release gives back what was taken from the op arena since k: a work
// that is not a copy needs a read's bytes only until they are hashed.
func (s *scratch) release(k arenaMark) {
	if k.gen == s.gen {
		s.opBuf = s.opBuf[:k.n]
	} else {
		s.opBuf = s.opBuf[:0] // the array is newer than the mark: all of it came after
	}
}

// bytes returns n bytes from the op arena; they stay valid until the next
// op is issued.
func (s *scratch) bytes(n int) []byte {
	if cap(s.opBuf)-len(s.opBuf) < n {
		s.opBuf = make([]byte, 0, max(2*cap(s.opBuf), n, 1<<16))
		s.gen++
	}
	b := s.opBuf[len(s.opBuf) : len(s.opBuf)+n]
	s.opBuf = s.opBuf[:len(s.opBuf)+n]
	return b
}

func (s *scratch) takes(n int) []uint64 {
	if cap(s.takeBuf) < n {
		s.takeBuf = make([]uint64, n)
	}
	t := s.takeBuf[:n]
	clear(t)
	return t
}

func (s *scratch) lines(n int) [][LineSize]byte {
	if cap(s.lineBuf) < n {
		s.lineBuf = make([][LineSize]byte, n)
	}
	return s.lineBuf[:n]
}

// Accesses. Reads, data writes and metadata initialisations are also logged
// by address range while their op is in flight, for the write-after-read
// and write-after-write checks.

type accessKind uint8

const (
	accessRead accessKind = iota
	accessWrite
	// accessLogical: a write of what bytes mean rather than of the bytes (a
	// metadata initialisation over a surface's data range).
	accessLogical
)

type access struct {
	op     *opRec
	lv     *level // where a write landed (memory for reads)
	addr   uint64
	n      int
	kind   accessKind
	client cmdbuf.Client
	// wide: it is listed in its level's wide list, not in buckets.
	wide  bool
	order uint64
}

// effectLog indexes the in-flight accesses by level and 4 KiB bucket, and
// counts the in-flight line effects (kept on the levels) and recycles them.
type effectLog struct {
	buckets map[bucketKey][]*access
	// wide lists, per level id, oldest first, the accesses that covered
	// more than wideAt buckets when logged: indexed in every bucket, a
	// chain of dispatches over 4 MiB kept 8 bytes a 4 KiB bucket for each
	// dispatch, and each write's checks walked them all, bucket by bucket.
	// A query looks through its level's list whole.
	wide     [256][]*access
	wideAt   uint64
	accesses int
	order    uint64
	lines    int    // line effects in flight
	merged   int    // line effects merged into the one below them, in all (merge.go)
	pass     uint32 // retire passes, for memoising per op
	// Recycling, so a warm machine logs accesses without allocating:
	// emptied bucket slices, access records in chunks (used: handed out
	// since the last reset) and records a retire gave back. The chunks
	// hold the records for good, so slices past their length need not be
	// cleared for the collector.
	spare [][]*access
	slab  [][]access
	used  int
	free  []*access
	// last is the record logged last, which a contiguous access of the
	// same op, level, kind and client extends; nil once records are
	// retired or reset. apart turns that off (Machine.perLine).
	last  *access
	apart bool
}

const accessChunk = 256

// newAccess returns a record for an access: a retired one, or the next of
// the chunks.
func (g *effectLog) newAccess() *access {
	if n := len(g.free); n > 0 {
		a := g.free[n-1]
		g.free = g.free[:n-1]
		return a
	}
	if g.used == len(g.slab)*accessChunk {
		g.slab = append(g.slab, make([]access, accessChunk))
	}
	a := &g.slab[g.used/accessChunk][g.used%accessChunk]
	g.used++
	return a
}

// dropBucket removes bucket k, whose slice as is empty, keeping the slice.
func (g *effectLog) dropBucket(k bucketKey, as []*access) {
	delete(g.buckets, k)
	g.spare = append(g.spare, as[:0])
}

// bucketKey names the 4 KiB bucket b of a level's log: b above the level's
// id, one word, so the map hashes it as an integer (a struct of a pointer
// and a block hashed as 16 bytes cost a tenth of a copy's time). Block
// numbers of 64-bit addresses fit in the 56 bits above the id.
type bucketKey uint64

func bucketOf(lv *level, b uint64) bucketKey { return bucketKey(b<<8 | uint64(lv.id)) }

// block is the bucket's block number.
func (k bucketKey) block() uint64 { return uint64(k) >> 8 }

// wideAt is how many 4 KiB buckets an access may cover and still be
// indexed by bucket (effectLog.wide): 64 KiB.
const wideAt = 16

func newEffectLog() *effectLog {
	return &effectLog{buckets: make(map[bucketKey][]*access), wideAt: wideAt}
}

// count is everything in flight.
func (g *effectLog) count() int { return g.accesses + g.lines }

func (g *effectLog) addAccess(v access) {
	if a := g.last; a != nil && !g.apart && a.op == v.op && a.lv == v.lv && a.kind == v.kind && a.client == v.client &&
		a.addr+uint64(a.n) == v.addr {
		// It continues the access logged last, of the same op: one record
		// (a compressed write stores block after block). The checks ask
		// for overlaps and merge what they find by op, so one record
		// answers as the pieces did.
		from := (a.addr+uint64(a.n)-1)>>blockShift + 1
		a.n += v.n
		if !a.wide {
			g.index(a, from)
		}
		return
	}
	a := g.newAccess()
	*a = v
	g.order++
	a.order = g.order
	if first, last := a.addr>>blockShift, (a.addr+uint64(a.n)-1)>>blockShift; last-first >= g.wideAt {
		a.wide = true
		g.wide[a.lv.id] = append(g.wide[a.lv.id], a)
	} else {
		g.index(a, first)
	}
	g.accesses++
	g.last = a
}

// index adds a to the buckets it covers from bucket from on.
func (g *effectLog) index(a *access, from uint64) {
	for b := from; b <= (a.addr+uint64(a.n)-1)>>blockShift; b++ {
		k := bucketOf(a.lv, b)
		as, ok := g.buckets[k]
		if n := len(g.spare); !ok && n > 0 {
			as = g.spare[n-1]
			g.spare = g.spare[:n-1]
		}
		g.buckets[k] = append(as, a)
	}
}

// overlapping returns the accesses logged at lv overlapping [addr, addr+n),
// oldest first.
func (g *effectLog) overlapping(lv *level, addr uint64, n int) []*access {
	if g.accesses == 0 || n == 0 {
		return nil
	}
	var out []*access
	end := addr + uint64(n)
	for _, a := range g.wide[lv.id] {
		if a.addr < end && addr < a.addr+uint64(a.n) {
			out = append(out, a)
		}
	}
	wide := len(out) > 0
	first := addr >> blockShift
	for b := first; b <= (end-1)>>blockShift; b++ {
		for _, a := range g.buckets[bucketOf(lv, b)] {
			// One starting in an earlier bucket than b was met there,
			// unless b is the first bucket looked at.
			if b > first && a.addr>>blockShift < b {
				continue
			}
			if a.addr < end && addr < a.addr+uint64(a.n) {
				out = append(out, a)
			}
		}
	}
	if wide || first != (end-1)>>blockShift {
		slices.SortFunc(out, func(x, y *access) int { return int(x.order) - int(y.order) })
	}
	return out
}

// ofOp returns op's logged accesses of the given kinds, oldest first.
func (g *effectLog) ofOp(op *opRec, kinds ...accessKind) []*access {
	var out []*access
	for k, as := range g.buckets {
		for _, a := range as {
			if a.op == op && a.addr>>blockShift == k.block() && slices.Contains(kinds, a.kind) {
				out = append(out, a)
			}
		}
	}
	for _, as := range g.wide {
		for _, a := range as {
			if a.op == op && slices.Contains(kinds, a.kind) {
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(x, y *access) int { return int(x.order) - int(y.order) })
	return out
}

// retire drops what no op still to come can be unordered with (gone says
// so of an op): every such access, and every such line effect except one
// with an older kept effect under it — for a reader not ordered after the
// older one, the newer one is what stops the roll-back (lineView), so it
// stays until the older one goes.
func (m *Machine) retireEffects(gone func(*opRec) bool) {
	pass := m.effects.pass
	g := m.effects
	g.last = nil // it may be given back below
	for k, as := range g.buckets {
		w := as[:0]
		for _, a := range as {
			if !gone(a.op) {
				w = append(w, a)
			} else if a.addr>>blockShift == k.block() {
				// Once, from the bucket it starts in; every bucket drops
				// it in this pass, and nothing is logged before the pass ends.
				g.free = append(g.free, a)
			}
		}
		if len(w) == 0 {
			g.dropBucket(k, as)
		} else {
			g.buckets[k] = w
		}
	}
	n := 0
	for k, as := range g.buckets {
		for _, a := range as {
			if a.addr>>blockShift == k.block() { // once: in the bucket it starts in
				n++
			}
		}
	}
	for id, as := range g.wide {
		w := as[:0]
		for _, a := range as {
			if !gone(a.op) {
				w = append(w, a)
			} else {
				g.free = append(g.free, a)
			}
		}
		g.wide[id] = w
		n += len(w)
	}
	g.accesses = n
	for _, lv := range m.allLevels() {
		for k, b := range lv.fx {
			// A block whose effects are all of ops still to be reckoned
			// with keeps every node: nothing to compact.
			anyDone := false
			for j := range b.effects {
				op := m.ops[b.effects[j].gid]
				done := op.gone
				if op.gonePass != pass {
					done = gone(op)
				}
				if done {
					anyDone = true
					break
				}
			}
			if !anyDone {
				continue
			}
			// Oldest first, per line: kept is what the line's kept
			// records cover; the surviving records are rechained into
			// nodes (in scratch space: a node whose lines part ways
			// becomes several), and the effects they name compacted with
			// them (remap: an effect's new index, -1 until a node keeps it).
			var kept [blockLines]uint64
			for i := range b.newest {
				b.newest[i] = -1
			}
			remap := slices.Grow(b.remap[:0], len(b.effects))[:len(b.effects)]
			for i := range remap {
				remap[i] = -1
			}
			out, we, dropped := m.scratch.nodes[:0], 0, 0
			for _, nd := range b.nodes {
				e := &b.effects[nd.effect]
				op := m.ops[e.gid]
				done := op.gone
				if op.gonePass != pass {
					done = gone(op)
				}
				for i := uint64(nd.line); i < uint64(nd.line)+uint64(nd.n); i++ {
					if done && e.reach&kept[i] == 0 {
						lv.undo.release(e) // an effect with a slot has one line
						dropped++
						continue
					}
					kept[i] |= e.reach
					if remap[nd.effect] < 0 {
						remap[nd.effect] = int32(we)
						b.effects[we] = *e // we <= nd.effect: nothing later is overwritten
						we++
					}
					ne, older := uint32(remap[nd.effect]), b.newest[i]
					if k := len(out) - 1; k >= 0 && !m.perLine && out[k].effect == ne && uint64(out[k].line)+uint64(out[k].n) == i && out[k].older == older {
						out[k].n++
					} else {
						out = append(out, fxNode{effect: ne, older: older, line: uint8(i), n: 1})
					}
					b.newest[i] = int32(len(out) - 1)
				}
			}
			g.lines -= dropped
			b.nodes = append(b.nodes[:0], out...)
			m.scratch.nodes = out[:0]
			b.effects = b.effects[:we]
			b.remap = remap
			if len(b.nodes) == 0 {
				lv.dropFx(k, b)
			}
		}
	}
}

// resetEffects drops everything in flight: the CPU saw the GPU idle.
func (m *Machine) resetEffects() {
	for _, lv := range m.allLevels() {
		for k, b := range lv.fx {
			b.effects, b.nodes = b.effects[:0], b.nodes[:0]
			for i := range b.newest {
				b.newest[i] = -1
			}
			lv.dropFx(k, b)
		}
		lv.undo.reset()
	}
	// The log is emptied in place; its pass count goes on, so no op's
	// memo from an earlier pass is taken for a later one.
	g := m.effects
	for k, as := range g.buckets {
		g.dropBucket(k, as)
	}
	for id, as := range g.wide {
		g.wide[id] = as[:0]
	}
	// The records are reused as they are: each is overwritten whole when
	// handed out, and what they point to (ops, levels) lives on anyway.
	g.accesses, g.lines, g.order, g.used, g.free, g.last = 0, 0, 0, 0, g.free[:0], nil
}
