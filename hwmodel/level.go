package hwmodel

import (
	"iter"
	"math/bits"
	"slices"

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
