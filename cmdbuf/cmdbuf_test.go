package cmdbuf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

func samplePackets() []uint32 {
	var d []uint32
	d = AppendMarker(d, 0x000c0003, "Barrier call 12, barrier 3")
	d = AppendWork(d, Work{Kind: WorkDraw, Stage: StageColor, Duration: 120, ID: 7},
		Access{Addr: 0x10000, Size: 0x400, Dir: DirRead, Client: ClientShaderLoad},
		Access{Addr: 0x20000, Size: 0x1000, Dir: DirWrite, Client: ClientColor, Surface: 3, Compressed: true})
	d = AppendWait(d, Wait{Drain: StagePixel.Mask() | StageCompute.Mask(), Hold: AllStages})
	d = AppendCache(d, CacheOp{Flush: CacheColor.Mask(), Invalidate: CacheTextureL0.Mask(), Addr: 0x10000, Size: 0x4000}, false)
	d = AppendCache(d, CacheOp{Flush: AllCaches}, true)
	d = AppendDecompress(d, SurfaceRegion{Surface: 3, Offset: 0, Size: 0x10000}, false)
	d = AppendMetadataInit(d, SurfaceRegion{Surface: 4, Value: 0xab, Offset: 0x100, Size: 0x200}, true)
	d = AppendEventSignal(d, Event{ID: 1, Stages: StageBlit.Mask()})
	d = AppendEventWait(d, Event{ID: 1, Stages: StagePixel.Mask()})
	d = AppendFenceSignal(d, Fence{ID: 2, Value: 1 << 40})
	d = AppendFenceWait(d, Fence{ID: 2, Value: 5})
	d = AppendCall(d, Call{Buffer: 9})
	d = AppendNop(d, 2)
	d = AppendWork(d, Work{Kind: WorkDraw, Stage: StagePixel, Duration: 5, ID: 7, Chained: true},
		Access{Addr: 0x30000, Size: 0x40, Dir: DirRead, Client: ClientShaderLoad})
	d = AppendMetadataInit(d, SurfaceRegion{Surface: 4, Offset: 0, Size: 0x100, Plain: true}, false)
	d = AppendMetadataInit(d, SurfaceRegion{Surface: 5, Offset: 0x100, Size: 0x100, Plain: true, Discard: true}, true)
	return d
}

func TestRoundTrip(t *testing.T) {
	d := samplePackets()
	var ops []Opcode
	for off := 0; off < len(d); {
		p, err := Decode(d, off)
		require.NoError(t, err, "dword %d", off)
		ops = append(ops, p.Op())
		off += p.Size()
	}
	assert.Equal(t, []Opcode{OpMarker, OpWork, OpWait, OpCache, OpCache, OpDecompress, OpMetadataInit, OpEventSignal,
		OpEventWait, OpFenceSignal, OpFenceWait, OpCall, OpNop, OpWork, OpMetadataInit, OpMetadataInit}, ops)

	p, _ := Decode(d, 0)
	assert.Equal(t, Marker{0x000c0003, "Barrier call 12, barrier 3"}, p.Marker())
	off := p.Size()
	p, _ = Decode(d, off)
	assert.Equal(t, Work{Kind: WorkDraw, Stage: StageColor, NumAccesses: 2, Duration: 120, ID: 7}, p.Work())
	assert.Equal(t, Access{Addr: 0x20000, Size: 0x1000, Dir: DirWrite, Client: ClientColor, Surface: 3, Compressed: true}, p.Access(1))
	off += p.Size()
	p, _ = Decode(d, off)
	assert.Equal(t, Wait{StagePixel.Mask() | StageCompute.Mask(), AllStages}, p.Wait())
	off += p.Size()
	p, _ = Decode(d, off)
	assert.Equal(t, CacheOp{CacheColor.Mask(), CacheTextureL0.Mask(), 0x10000, 0x4000}, p.Cache())
	assert.False(t, p.Async())
	off += p.Size()
	p, _ = Decode(d, off)
	assert.True(t, p.Async())
	off += p.Size()
	p, _ = Decode(d, off)
	assert.Equal(t, SurfaceRegion{Surface: 3, Size: 0x10000}, p.Decompress())
	off += p.Size()
	p, _ = Decode(d, off)
	assert.Equal(t, SurfaceRegion{Surface: 4, Value: 0xab, Offset: 0x100, Size: 0x200}, p.MetadataInit())
	off += p.Size() + 3 + 3
	p, _ = Decode(d, off)
	assert.Equal(t, Fence{2, 1 << 40}, p.Fence())
	off += p.Size()
	for _, op := range []Opcode{OpFenceWait, OpCall, OpNop} {
		p, _ = Decode(d, off)
		require.Equal(t, op, p.Op())
		off += p.Size()
	}
	p, _ = Decode(d, off)
	assert.Equal(t, Work{Kind: WorkDraw, Stage: StagePixel, NumAccesses: 1, Duration: 5, ID: 7, Chained: true}, p.Work())
	assert.Equal(t, "DRAW stage=PIXEL dur=5 id=7 chained [R 0x30000+0x40 SHADER_LOAD]", Describe(p))
	off += p.Size()
	p, _ = Decode(d, off)
	assert.Equal(t, SurfaceRegion{Surface: 4, Size: 0x100, Plain: true}, p.MetadataInit())
	assert.Equal(t, "surf=4 plain range=0x0+0x100", Describe(p))
	off += p.Size()
	p, _ = Decode(d, off)
	assert.Equal(t, SurfaceRegion{Surface: 5, Offset: 0x100, Size: 0x100, Plain: true, Discard: true}, p.MetadataInit())
	assert.Equal(t, "async surf=5 plain discard range=0x100+0x100", Describe(p))
}

func TestLongAccessListsSplitIntoPairs(t *testing.T) {
	var acc []Access
	for i := 0; i < 300; i++ {
		dir := DirRead
		if i%2 == 1 {
			dir = DirWrite
		}
		acc = append(acc, Access{Addr: uint64(i) * 16, Size: 16, Dir: dir, Client: ClientCopy})
	}
	d := AppendWork(nil, Work{Kind: WorkCopy, Stage: StageCopy, Duration: 101, ID: 3}, acc...)
	var got []Access
	var dur uint32
	for off := 0; off < len(d); {
		p, err := Decode(d, off)
		require.NoError(t, err)
		w := p.Work()
		assert.Zero(t, w.NumAccesses%2, "read/write pairs stay in one packet")
		assert.Equal(t, off > 0, w.Chained, "the later packets continue the first")
		assert.LessOrEqual(t, w.NumAccesses, MaxAccesses)
		dur += w.Duration
		for i := 0; i < w.NumAccesses; i++ {
			got = append(got, p.Access(i))
		}
		off += p.Size()
	}
	assert.Equal(t, acc, got)
	assert.Equal(t, uint32(101), dur, "the duration is shared out")
}

func TestZeroAllocations(t *testing.T) {
	d := samplePackets()
	buf := make([]uint32, 0, 1024)
	enc := testing.AllocsPerRun(200, func() {
		b := buf[:0]
		b = AppendWait(b, Wait{Drain: AllStages, Hold: AllStages})
		b = AppendCache(b, CacheOp{Flush: AllCaches}, false)
		b = AppendWork(b, Work{Kind: WorkCopy, Stage: StageCopy}, Access{Addr: 1, Size: 4, Dir: DirRead}, Access{Addr: 9, Size: 4, Dir: DirWrite})
		b = AppendMarker(b, 1, "x")
		b = AppendDecompress(b, SurfaceRegion{Surface: 1, Size: 64}, true)
		_ = b
	})
	assert.Zero(t, enc, "encoding into a buffer with room allocates nothing")
	text := make([]byte, 0, 64)
	dec := testing.AllocsPerRun(200, func() {
		for off := 0; off < len(d); {
			p, err := Decode(d, off)
			if err != nil {
				t.Fatal(err)
			}
			switch p.Op() {
			case OpWork:
				w := p.Work()
				for i := 0; i < w.NumAccesses; i++ {
					_ = p.Access(i)
				}
			case OpMarker:
				text = p.AppendMarkerText(text[:0])
			case OpCache:
				_ = p.Cache()
			case OpWait:
				_ = p.Wait()
			}
			off += p.Size()
		}
	})
	assert.Zero(t, dec, "decoding allocates nothing")
}

// TestAccessSizes64: an access's size is 64-bit in the packet, so work of
// 4 GiB or more keeps every byte (a 32-bit size field cut 4 GiB + 8 KiB to
// 8 KiB, and exactly 4 GiB to an empty access).
func TestAccessSizes64(t *testing.T) {
	for _, size := range []uint64{1, 1<<32 - 1, 1 << 32, 1<<32 + 8<<10, 5 << 30, 16 << 30, 1<<64 - 1<<40} {
		acc := []Access{
			{Addr: 0x1_0000_0000, Size: size, Dir: DirRead, Client: ClientCopy},
			{Addr: 0xff_0000_0000 - size&^0xff, Size: size, Dir: DirWrite, Client: ClientCopy, Surface: 0xffff, Compressed: true},
		}
		if acc[0].End() < acc[0].Addr {
			acc[0].Addr = 0
		}
		if acc[1].End() < acc[1].Addr {
			acc[1].Addr = 0
		}
		d := AppendWork(nil, Work{Kind: WorkCopy, Stage: StageCopy, ID: 1}, acc...)
		p, err := Decode(d, 0)
		require.NoError(t, err, "size 0x%x", size)
		for i := range acc {
			assert.Equal(t, acc[i], p.Access(i), "size 0x%x", size)
			assert.Equal(t, acc[i].Addr+size, p.Access(i).End())
			assert.Equal(t, uint32(acc[i].Dir)|uint32(acc[i].Client)<<8|uint32(acc[i].Surface)<<16|
				map[bool]uint32{true: AttrCompressed}[acc[i].Compressed], d[AccessAttrDword(i)], "the attribute dword")
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	d := AppendWait(nil, Wait{1, 1})
	cases := []struct {
		name   string
		words  []uint32
		off    int
		class  error
		substr string
	}{
		{"truncated", []uint32{uint32(MakeHeader(OpWait, 0, 2)), 1}, 0, ErrTruncated, "2 payload dwords, 1 left"},
		{"past end", d, 3, ErrTruncated, "no header at dword 3 of 3"},
		{"unknown", []uint32{uint32(MakeHeader(0x7f, 0, 1)), 0}, 0, ErrUnknownOpcode, "0x7f (1 payload dwords skipped)"},
		{"wait length", []uint32{uint32(MakeHeader(OpWait, 0, 1)), 0}, 0, ErrPayloadLength, "WAIT has 2 payload dwords, got 1"},
		{"bad stage mask", []uint32{uint32(MakeHeader(OpWait, 0, 2)), 1 << 30, 0}, 0, ErrBadField, "drain=0x40000000"},
		{"bad kind", AppendWork(nil, Work{Kind: 99}), 0, ErrBadField, "work kind 99"},
		{"bad stage", AppendWork(nil, Work{Stage: 99}), 0, ErrBadField, "stage 99"},
		{"bad dir", AppendWork(nil, Work{}, Access{Size: 4, Dir: 3}), 0, ErrBadField, "access 0 direction 3"},
		{"empty access", AppendWork(nil, Work{}, Access{Dir: DirRead}), 0, ErrBadField, "access 0 is empty"},
		{"bad client", AppendWork(nil, Work{}, Access{Size: 4, Dir: DirRead, Client: 77}), 0, ErrBadField, "client 77"},
		{"work count", []uint32{uint32(MakeHeader(OpWork, 0, 5)), 2 << 16, 0, 0, 0, 0}, 0, ErrPayloadLength, "2 accesses has 14"},
		{"access wraps", AppendWork(nil, Work{}, Access{Addr: 1 << 63, Size: 1 << 63, Dir: DirRead}), 0, ErrBadField,
			"access 0 (0x8000000000000000+0x8000000000000000) runs past the end of the address space"},
		{"marker text", []uint32{uint32(MakeHeader(OpMarker, 0, 2)), 0, 9}, 0, ErrPayloadLength, "9 bytes needs 3"},
		{"metadata value", []uint32{uint32(MakeHeader(OpMetadataInit, 0, 6)), 1, 0x100, 0, 0, 0, 0}, 0, ErrBadField, "not a byte"},
		{"wait flags", []uint32{uint32(MakeHeader(OpWait, FlagAsync, 2)), 1, 1}, 0, ErrBadField, "flags 0x01 are not defined for WAIT"},
		{"work flags", []uint32{uint32(MakeHeader(OpWork, FlagPlain|FlagChained, 4)), 0, 0, 0, 0}, 0, ErrBadField, "flags 0x04 are not defined for WORK"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.words, c.off)
			require.Error(t, err)
			assert.Zero(t, Valid(c.words, c.off), "Valid agrees")
			assert.ErrorIs(t, err, c.class)
			var de *DecodeError
			require.True(t, errors.As(err, &de))
			assert.Equal(t, c.off, de.Offset)
			assert.Contains(t, err.Error(), c.substr)
			assert.Contains(t, err.Error(), fmt.Sprintf("dword %d", c.off))
		})
	}
	for off := 0; off < len(samplePackets()); off += Valid(samplePackets(), off) {
		p, err := Decode(samplePackets(), off)
		require.NoError(t, err)
		require.Equal(t, p.Size(), Valid(samplePackets(), off), "Valid at dword %d", off)
	}
	// An unknown opcode still gives the packet, to skip by its size.
	p, err := Decode([]uint32{uint32(MakeHeader(0x7f, 0, 1)), 0, uint32(MakeHeader(OpNop, 0, 0))}, 0)
	assert.ErrorIs(t, err, ErrUnknownOpcode)
	assert.Equal(t, 2, p.Size())
}

func TestBufferChunksChainAndWalk(t *testing.T) {
	b := NewBuffer(16)
	for i := 0; i < 20; i++ {
		b.Emit(func(d []uint32) []uint32 { return AppendWait(d, Wait{StageMask(i), AllStages}) })
	}
	require.Greater(t, len(b.Chunks()), 1)
	for i, c := range b.Chunks() {
		assert.LessOrEqual(t, len(c), 16)
		if i < len(b.Chunks())-1 {
			p, err := Decode(c, len(c)-2)
			require.NoError(t, err)
			assert.Equal(t, Chain{uint32(i + 1)}, p.Chain())
		}
	}
	var drains []StageMask
	require.NoError(t, b.Walk(func(_ int, p Packet, err error) error {
		require.NoError(t, err)
		if p.Op() == OpWait {
			drains = append(drains, p.Wait().Drain)
		}
		return nil
	}))
	require.Len(t, drains, 20)
	for i, d := range drains {
		assert.Equal(t, StageMask(i), d)
	}

	// A packet bigger than a chunk gets a chunk of its own.
	big := NewBuffer(16)
	big.Emit(func(d []uint32) []uint32 { return AppendNop(d, 3) })
	big.Emit(func(d []uint32) []uint32 { return AppendNop(d, 40) })
	assert.Equal(t, Pos{1, 0}, big.Last(), "the big packet starts its own chunk")
	big.Emit(func(d []uint32) []uint32 { return AppendNop(d, 1) })
	n := 0
	require.NoError(t, big.Walk(func(_ int, p Packet, err error) error {
		require.NoError(t, err)
		if p.Op() == OpNop {
			n++
		}
		return nil
	}))
	assert.Equal(t, 3, n)

	b.Reset()
	assert.Zero(t, b.Len())

	// A truncated packet is stored, not trusted: walking reports it.
	tr := NewBuffer(16)
	tr.Append([]uint32{uint32(MakeHeader(OpWait, 0, 9)), 1})
	tr.Append([]uint32{uint32(MakeHeader(OpNop, 0, 40)), 1, 2})
	var errs int
	_ = tr.Walk(func(_ int, _ Packet, err error) error {
		if errors.Is(err, ErrTruncated) {
			errs++
		}
		return nil
	})
	assert.Equal(t, 1, errs, "the walk stops at the first truncated header")
}

func TestDumpLoad(t *testing.T) {
	b := NewBuffer(32)
	b.Append(samplePackets())
	var f bytes.Buffer
	require.NoError(t, b.Dump(&f))
	back, err := Load(f.Bytes())
	require.NoError(t, err)
	assert.Equal(t, b.Words(), back.Words())
	assert.Equal(t, len(b.Chunks()), len(back.Chunks()))

	raw := f.Bytes()
	for _, c := range []struct {
		data   []byte
		substr string
	}{
		{[]byte("nope"), "no EBCB magic"},
		{append(append([]byte{}, raw[:4]...), 9, 0, 0, 0, 0, 0, 0, 0), "version 9"},
		{raw[:len(raw)-3], "claims"},
		{append(append([]byte{}, raw...), 1, 2), "2 trailing bytes"},
		{append(append([]byte{}, raw[:8]...), 5, 0, 0, 0), "chunk 0's length missing"},
		{raw[:4], "the header is cut short: 4 bytes, it has 12"},
		{raw[:0], "no EBCB magic"},
		{append(append([]byte{}, raw[:8]...), 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), "chunk 0 at byte 12 is empty"},
	} {
		_, err := Load(c.data)
		require.Error(t, err, c.substr)
		assert.ErrorIs(t, err, ErrBadDump)
		assert.Contains(t, err.Error(), c.substr)
	}
	// Loading costs memory in proportion to the dump (issue 32: a dump
	// of empty chunks took 11 times its size): here a million chunks of
	// one dword, the smallest a chunk that is not the last can be.
	const chunks = 1 << 20
	dump := binary.LittleEndian.AppendUint32(nil, dumpMagic)
	dump = binary.LittleEndian.AppendUint32(dump, dumpVersion)
	dump = binary.LittleEndian.AppendUint32(dump, chunks)
	for range chunks {
		dump = binary.LittleEndian.AppendUint32(dump, 1)
		dump = binary.LittleEndian.AppendUint32(dump, 0)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	back, err = Load(dump)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Len(t, back.Chunks(), chunks)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(5*len(dump)), "bytes allocated to load a %d-byte dump", len(dump))
	_, err = WordsFromBytes([]byte{1, 2, 3, 4, 5})
	assert.ErrorContains(t, err, "1 left over at byte 4")
}

func TestMasks(t *testing.T) {
	assert.Equal(t, "PIXEL|COMPUTE", (StagePixel.Mask() | StageCompute.Mask()).String())
	assert.Equal(t, "ALL", AllStages.String())
	assert.Equal(t, "NONE", StageMask(0).String())
	for m := StageMask(0); m <= AllStages; m += 37 {
		back, err := ParseStageMask(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, back)
	}
	for m := CacheMask(0); m <= AllCaches; m++ {
		back, err := ParseCacheMask(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, back)
	}
	_, err := ParseStageMask("PIXEL|NOPE")
	assert.ErrorContains(t, err, `"NOPE"`)
	for c := Client(0); c < NumClients; c++ {
		back, err := ParseClient(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, back)
	}
	assert.Equal(t, "OP_0x7f", Opcode(0x7f).String())
	assert.Len(t, Opcodes(), len(opcodeNames))
}

// readHex parses a corpus file: hex dwords separated by white space; '#'
// starts a comment.
func readHex(t *testing.T, path string) []uint32 {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var words []uint32
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		for _, tok := range strings.Fields(line) {
			v, err := strconv.ParseUint(tok, 16, 32)
			require.NoError(t, err, "%s: %q", path, tok)
			words = append(words, uint32(v))
		}
	}
	require.NoError(t, sc.Err())
	return words
}

// TestGoldenCorpus: every testdata/disasm/*.hex disassembles to its .txt.
// The "main" buffer may CALL buffer 1, which is the corpus file named in the
// first line's "# call 1: FILE" comment, if any.
func TestGoldenCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/disasm/*.hex")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b := FromWords(readHex(t, path))
			resolve := func(id uint32) (*Buffer, bool) {
				callee := filepath.Join("testdata/disasm/callee", fmt.Sprintf("%d.hex", id))
				if _, err := os.Stat(callee); err != nil {
					return nil, false
				}
				return FromWords(readHex(t, callee)), true
			}
			var out bytes.Buffer
			require.NoError(t, WriteListing(&out, Listing(b, resolve)))
			golden := strings.TrimSuffix(path, ".hex") + ".txt"
			if *update {
				require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), out.String())
		})
	}
}

// FuzzDecodeAndDisassemble: no input panics the decoder, the walker or the
// disassembler, and every decode error names an offset inside the input.
func FuzzDecodeAndDisassemble(f *testing.F) {
	seed := func(words []uint32) []byte {
		b := make([]byte, 4*len(words))
		for i, w := range words {
			b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
		}
		return b
	}
	f.Add(seed(samplePackets()))
	f.Add(seed([]uint32{uint32(MakeHeader(OpChain, 0, 1)), 5}))
	f.Add(seed([]uint32{uint32(MakeHeader(OpWork, 0, 0xffff))}))
	files, _ := filepath.Glob("testdata/disasm/*.hex")
	for _, path := range files {
		if words := readHexFile(path); words != nil {
			f.Add(seed(words))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		words, err := WordsFromBytes(data[:len(data)/4*4])
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(words); {
			p, err := Decode(words, off)
			if n := Valid(words, off); (err == nil) != (n > 0) || err == nil && n != p.Size() {
				t.Fatalf("dword %d: Valid says %d, Decode %v (size %d)", off, n, err, p.Size())
			}
			if err != nil {
				var de *DecodeError
				if !errors.As(err, &de) || de.Offset != off {
					t.Fatalf("error without the offset: %v", err)
				}
				if errors.Is(err, ErrTruncated) {
					break
				}
			}
			if err == nil {
				_ = Describe(p)
			}
			off += p.Size()
		}
		self := FromWords(words)
		lines := Listing(self, func(uint32) (*Buffer, bool) { return self, true })
		_ = WriteListing(&bytes.Buffer{}, lines)
		if _, err := Load(data); err == nil {
			_ = Listing(self, nil)
		}
	})
}

func readHexFile(path string) []uint32 {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var words []uint32
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, tok := range strings.Fields(line) {
			v, err := strconv.ParseUint(tok, 16, 32)
			if err != nil {
				return nil
			}
			words = append(words, uint32(v))
		}
	}
	return words
}

func TestLastCloneAndReuse(t *testing.T) {
	b := NewBuffer(16)
	var at []Pos
	for i := 0; i < 12; i++ {
		b.Emit(func(d []uint32) []uint32 {
			return AppendWait(d, Wait{Drain: StageCopy.Mask(), Hold: Stage(i % 8).Mask()})
		})
		at = append(at, b.Last())
	}
	for i, p := range at {
		w, err := Decode(b.Chunks()[p.Chunk], p.Off)
		require.NoError(t, err, "packet %d at %+v", i, p)
		assert.Equal(t, Stage(i%8).Mask(), w.Wait().Hold, "packet %d", i)
	}
	c := b.Clone()
	c.Chunks()[at[3].Chunk][at[3].Off+2] = uint32(AllStages)
	w, _ := Decode(b.Chunks()[at[3].Chunk], at[3].Off)
	assert.Equal(t, Stage(3).Mask(), w.Wait().Hold, "a clone shares no memory")
	w, _ = Decode(c.Chunks()[at[3].Chunk], at[3].Off)
	assert.Equal(t, AllStages, w.Wait().Hold)

	chunks := len(b.Chunks())
	require.Greater(t, chunks, 2)
	b.Reset()
	allocs := testing.AllocsPerRun(20, func() {
		b.Reset()
		for i := 0; i < 12; i++ {
			b.Emit(func(d []uint32) []uint32 { return AppendWait(d, Wait{Drain: StageCopy.Mask()}) })
		}
	})
	assert.Zero(t, allocs, "re-recording after Reset reuses the chunks")
	assert.Len(t, b.Chunks(), chunks)
}

// fanOut is a buffer of eight CALLs of buffer 1 (64 bytes): called from
// itself eight deep it would list 8^8 packets.
func fanOut() *Buffer {
	var w []uint32
	for range 8 {
		w = AppendCall(w, Call{Buffer: 1})
	}
	return FromWords(w)
}

// TestCallExpansionIsBounded: a listing of a buffer that CALLs itself
// eight times, eight deep, stops at MaxCalledPackets with an error naming
// the limit, streaming its lines rather than holding them.
func TestCallExpansionIsBounded(t *testing.T) {
	b := fanOut()
	resolve := func(uint32) (*Buffer, bool) { return b, true }
	lines := 0
	// The walk's own growth: what other tests of the process left on the
	// heap is not the listing's.
	runtime.GC()
	var start runtime.MemStats
	runtime.ReadMemStats(&start)
	var peak uint64
	err := WalkListing(b, resolve, func(Line) error {
		lines++
		if lines%(1<<16) == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
		return nil
	})
	require.ErrorIs(t, err, ErrCallExpansion)
	assert.Contains(t, err.Error(), fmt.Sprint(MaxCalledPackets))
	assert.Equal(t, MaxCalledPackets+1, lines, "the top-level CALL and the called packets up to the limit")
	assert.Less(t, peak-min(peak, start.HeapInuse), uint64(64<<20), "streaming holds no listing")

	all := Listing(b, resolve)
	assert.Contains(t, all[len(all)-1].Error, "too many packets", "Listing ends with the limit's line")

	stop := errors.New("stop")
	assert.ErrorIs(t, WalkListing(b, resolve, func(Line) error { return stop }), stop)
}

// TestLoadMemoryIsTheDumpsSize: a 2 MB dump of 250k one-dword chunks loads
// into about its own size, not a default-size chunk per dword (it cost
// 1.19 GB).
func TestLoadMemoryIsTheDumpsSize(t *testing.T) {
	const chunks = 250_000
	data := binary.LittleEndian.AppendUint32(nil, 0x42434245)
	data = binary.LittleEndian.AppendUint32(data, 1)
	data = binary.LittleEndian.AppendUint32(data, chunks)
	nop := uint32(MakeHeader(OpNop, 0, 0))
	for range chunks {
		data = binary.LittleEndian.AppendUint32(data, 1)
		data = binary.LittleEndian.AppendUint32(data, nop)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b, err := Load(data)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Len(t, b.Chunks(), chunks)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "bytes allocated to load %d bytes", len(data))
	// Appending to a loaded buffer does not write into the next chunk.
	b.Append(AppendWait(nil, Wait{Drain: AllStages, Hold: AllStages}))
	assert.Equal(t, nop, b.Chunks()[1][0])
}

// Packets encoded in place through Tail and Commit make the buffer Append
// makes from the same groups: the same chunks, CHAINs and last packet,
// whether a group fits the room left, outgrows it, holds a packet bigger
// than a chunk, or is garbage (stored as it is, for the decoder to report).
func TestTailCommitIsAppend(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 200 {
		chunk := 16 + rng.IntN(48)
		a, b := NewBuffer(chunk), NewBuffer(chunk)
		for range 1 + rng.IntN(40) {
			var group []uint32
			for range rng.IntN(5) {
				group = AppendNop(group, rng.IntN(chunk+8))
			}
			if rng.IntN(4) == 0 { // garbage: any header, a length past the end
				for range 1 + rng.IntN(chunk) {
					group = append(group, rng.Uint32())
				}
			}
			a.Append(group)
			words := b.Tail()
			for i := 0; i < len(group); i += packetLen(group[i:]) {
				words = append(words, group[i:i+packetLen(group[i:])]...)
			}
			b.Commit(words)
			require.Equal(t, a.Chunks(), b.Chunks(), "round %d", round)
			if rng.IntN(2) == 0 { // Last is asked for now and then, not after every group
				require.Equal(t, a.Last(), b.Last(), "round %d", round)
			}
		}
		require.Equal(t, a.Last(), b.Last(), "round %d", round)
	}
}

// Len is kept, not walked: after appends, in-place commits, chunks
// chained, packets bigger than a chunk, a reset, a clone and a dump
// loaded back, it is the sum of the chunks' dwords, where the next
// packet's Line.Offset begins.
func TestLenIsTheChunksDwords(t *testing.T) {
	walked := func(b *Buffer) int {
		n := 0
		for _, c := range b.Chunks() {
			n += len(c)
		}
		return n
	}
	rng := rand.New(rand.NewPCG(7, 7))
	b := NewBuffer(16)
	for i := range 400 {
		if i == 200 {
			b.Reset()
		}
		before := b.Len()
		switch rng.IntN(3) {
		case 0:
			b.Emit(func(d []uint32) []uint32 { return AppendNop(d, rng.IntN(30)) })
		case 1:
			b.Commit(AppendNop(b.Tail(), rng.IntN(6)))
		default:
			b.Append(AppendNop(AppendNop(nil, rng.IntN(9)), 1))
		}
		require.Equal(t, walked(b), b.Len(), "step %d", i)
		require.Greater(t, b.Len(), before, "step %d", i)
		last := b.Last()
		require.Equal(t, walked(&Buffer{chunks: b.Chunks()[:last.Chunk]})+last.Off, Listing(b, nil)[len(Listing(b, nil))-1].Offset)
	}
	c := b.Clone()
	assert.Equal(t, b.Len(), c.Len())
	var dump bytes.Buffer
	require.NoError(t, b.Dump(&dump))
	l, err := Load(dump.Bytes())
	require.NoError(t, err)
	assert.Equal(t, b.Len(), l.Len())
	assert.Equal(t, walked(l), l.Len())
	l.Emit(func(d []uint32) []uint32 { return AppendNop(d, 2) })
	assert.Equal(t, walked(l), l.Len())
}

// TestPredicatedWork: the predicated flag round-trips, prints, and is
// defined for WORK only.
func TestPredicatedWork(t *testing.T) {
	w := Work{Kind: WorkCopy, Stage: StageCopy, Duration: 3, ID: 4, Predicated: true}
	d := AppendWork(nil, w, Access{Addr: 0x100, Size: 8, Dir: DirRead, Client: ClientCopy},
		Access{Addr: 0x200, Size: 8, Dir: DirWrite, Client: ClientCopy})
	p, err := Decode(d, 0)
	require.NoError(t, err)
	w.NumAccesses = 2
	assert.Equal(t, w, p.Work())
	assert.Contains(t, Describe(p), "id=4 predicated [")
	d[0] = uint32(MakeHeader(OpCache, FlagPredicated, 6))
	d = append(d[:1], 0, 0, 0, 0, 0, 0)
	_, err = Decode(d, 0)
	assert.ErrorIs(t, err, ErrBadField, "not a CACHE flag")
}
