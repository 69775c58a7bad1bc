package hwmodel

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
