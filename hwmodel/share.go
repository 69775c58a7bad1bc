package hwmodel

import "sync"

// Line data and copy on write.
//
// A block of lines keeps its bytes (lineData, 4 KiB) apart from its masks,
// in caches and in memory alike. A fill or write-back of a whole block
// gives the new block the bytes of the one it copies instead of a copy:
// both are then marked shared, and whichever writes first copies them. A
// G-buffer that is drawn, written back to L2 and to memory and sampled
// keeps one copy of its bytes in the colour cache, L2, memory and the
// texture cache, not four. The reference's memory takes its bytes from the
// same store, so what the CPU writes is memory's and the reference's at
// once.
//
// A machine's dataStore counts the holders of each shared block of bytes
// and takes back the bytes the last holder lets go, for reuse: a warm
// machine allocates no bytes, shared or not. A machine done with
// (Machine.Release) gives every block it made to the process's spares
// (a sync.Pool), from which the next machine takes before it allocates: a process that
// runs frame after frame (a bench, an HLK run) allocates and zeroes few
// new blocks.

// lineData is the bytes of a block's lines.
type lineData [blockLines][LineSize]byte

// dataStore hands out blocks of bytes, counts the holders of shared ones,
// and takes back those no block holds. The model runs on one goroutine.
type dataStore struct {
	free   []*lineData
	made   int // blocks of bytes allocated or taken from the spares, for tests to account for
	reused int // of those, taken from the spares
	// all is every block made, for release to give back
	all []*lineData
	// released: the machine let its bytes go (Machine.Release)
	released bool
	// holders counts the holders of bytes held more than once; bytes
	// absent from it have one holder (or none, once in free).
	holders map[*lineData]int32
}

func newDataStore() *dataStore { return &dataStore{holders: map[*lineData]int32{}} }

// get returns a block of bytes no one holds; its contents are arbitrary.
func (s *dataStore) get() *lineData {
	if n := len(s.free); n > 0 {
		d := s.free[n-1]
		s.free = s.free[:n-1]
		return d
	}
	if s.released {
		panic("hwmodel: a machine used after Release")
	}
	s.made++
	d := takeSpareData()
	if d == nil {
		d = new(lineData)
	} else {
		s.reused++
	}
	s.all = append(s.all, d)
	return d
}

// release gives every block the store made to the spares; the store
// hands out nothing after.
func (s *dataStore) releaseAll() {
	if s.released {
		return
	}
	s.released = true
	giveSpareData(s.all)
	s.all, s.free, s.holders = nil, nil, nil
}

// spares are blocks of bytes released machines gave back, for any machine
// of the process to take (machines run on goroutines of their own). A
// sync.Pool: what no machine takes before the garbage collector's next
// cycles is collected, so a process keeps no more memory than its
// machines hold, and a process that runs no more machines keeps none.
var spares = sync.Pool{}

func takeSpareData() *lineData {
	d, _ := spares.Get().(*lineData)
	return d
}

func giveSpareData(ds []*lineData) {
	for _, d := range ds {
		spares.Put(d)
	}
}

// lend adds a holder to d.
func (s *dataStore) lend(d *lineData) {
	if n, ok := s.holders[d]; ok {
		s.holders[d] = n + 1
	} else {
		s.holders[d] = 2
	}
}

// sole reports whether d has one holder left (the one asking).
func (s *dataStore) sole(d *lineData) bool {
	_, ok := s.holders[d]
	return !ok
}

// release removes a holder of d, taking d back if it was the last.
func (s *dataStore) release(d *lineData) {
	switch n, ok := s.holders[d]; {
	case !ok:
		s.free = append(s.free, d)
	case n == 2:
		delete(s.holders, d)
	default:
		s.holders[d] = n - 1
	}
}

// own returns d, the bytes at *at, to write: made if nil, copied if shared
// with another holder (*shared is the hint that it may be; a holder that
// finds itself the last clears it without copying).
func (s *dataStore) own(at **lineData, shared *bool) *lineData {
	switch d := *at; {
	case d == nil:
		*at = s.get()
	case *shared:
		if !s.sole(d) {
			c := s.get()
			*c = *d
			s.release(d)
			*at = c
		}
		*shared = false
	}
	return *at
}

// drop lets go of the bytes at *at (if any), leaving nil.
func (s *dataStore) drop(at **lineData, shared *bool) {
	if *at != nil {
		s.release(*at)
	}
	*at, *shared = nil, false
}

// lend returns b's bytes for another block, or memory, to share.
func (b *lineBlock) lend(s *dataStore) *lineData {
	b.shared = true
	s.lend(b.data)
	return b.data
}

// share gives b, whose lines are about to become copies of all of d's (a
// block's or memory's that lent them), the bytes d, letting go of its own.
func (b *lineBlock) share(s *dataStore, d *lineData) {
	s.drop(&b.data, &b.shared)
	b.data, b.shared = d, true
}
