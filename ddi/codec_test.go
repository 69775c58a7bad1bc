package ddi

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleBarriers is one barrier of each type with every member non-zero, so a
// field landing at the wrong offset shows.
func sampleBarriers() []Barrier {
	return []Barrier{
		NewGlobalBarrier(GlobalBarrier{SyncComputeShading, SyncComputeShading, AccessUnorderedAccess, AccessUnorderedAccess}),
		NewTextureBarrier(TextureBarrier{
			SyncBefore: SyncRenderTarget, SyncAfter: SyncPixelShading,
			AccessBefore: AccessRenderTarget, AccessAfter: AccessShaderResource,
			LayoutBefore: LayoutRenderTarget, LayoutAfter: LayoutDirectQueueShaderResource,
			Resource:     0x1000,
			Subresources: SubresourceRange{1, 2, 3, 4, 5, 6},
			Flags:        TextureBarrierFlagDiscard,
		}),
		NewBufferBarrier(BufferBarrier{SyncVertexShading, SyncCopy, AccessStreamOutput, AccessCopySource, 0x2000}),
		NewRangedBarrier(RangedBarrier{
			Flags: RangedBarrierFlagAtomicCopy | RangedBarrierFlagAcquire, Resource: 0x3000,
			Subresource: 7, Range: Range{Begin: 0x40, End: 0x80},
		}),
	}
}

// sample0088 is sampleBarriers as 0088 records: the first three unchanged,
// the ranged one with every 0088 member non-zero.
func sample0088() []Barrier0088 {
	var out []Barrier0088
	for _, b := range sampleBarriers()[:3] {
		x, ok := b.As0088()
		if !ok {
			panic("not a 0088 type")
		}
		out = append(out, x)
	}
	return append(out, NewRangedBarrier0088(RangedBarrier0088{
		GlobalBarrier: GlobalBarrier{SyncCopy, SyncAll, AccessCopyDest, AccessCopySource},
		Flags:         RangedBarrierFlagAtomicCopy, Resource: 0x4000,
		Subresources: SubresourceRange{1, 2, 3, 4, 5, 6},
		Range:        Range{Begin: 0x100, End: 0x180},
	}))
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	in := sampleBarriers()
	raw := AppendEncodedBarriers(nil, in)
	require.Len(t, raw, len(in)*72)
	out, err := DecodeBarriers(raw)
	require.NoError(t, err)
	assert.Equal(t, in, out)
}

// TestEncodedBytesAreTheCLayout pins the bytes of a texture barrier at the C
// offsets (record-relative: Type 0, union 8, LayoutBefore 24, hResource 32,
// Subresources 40, Flags 64) and of a 0094 ranged barrier as d3d12umddi.h
// lays it out (Flags 8, hResource 16, Subresource 24, Range 32).
func TestEncodedBytesAreTheCLayout(t *testing.T) {
	raw := AppendEncodedBarriers(nil, sampleBarriers()[1:2])
	want := "01000000" + "00000000" + // Type TEXTURE, padding
		"40000000" + "10000000" + "08000000" + "80000000" + // syncs, accesses
		"02000000" + "15000000" + // RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE (21)
		"0010000000000000" + // hResource
		"01000000020000000300000004000000" + "0500000006000000" + // subresources
		"01000000" + "00000000" // DISCARD, padding
	assert.Equal(t, want, hex.EncodeToString(raw))

	raw = AppendEncodedBarriers(nil, sampleBarriers()[3:4])
	want = "03000000" + "00000000" + // Type RANGED, padding
		"03000000" + "00000000" + "0030000000000000" + // ATOMIC_COPY|ACQUIRE, padding, hResource
		"07000000" + "00000000" + // Subresource, padding
		"4000000000000000" + "8000000000000000" + // Range
		"000000000000000000000000000000000000000000000000" // the union's last 24 bytes
	assert.Equal(t, want, hex.EncodeToString(raw))
}

// TestEncoded0088BytesAreTheCLayout pins a D3D12DDIARG_BARRIER_0088 ranged
// record (80 bytes: syncs and accesses 8, Flags 24, hResource 32,
// Subresources 40, Range 64) and shows the other types are the 0094 bytes
// with 8 more zero bytes.
func TestEncoded0088BytesAreTheCLayout(t *testing.T) {
	bs := sample0088()
	raw := AppendEncodedBarriers0088(nil, bs[3:4])
	want := "03000000" + "00000000" + // Type RANGED, padding
		"00020000" + "01000000" + "00040000" + "00080000" + // COPY -> ALL, COPY_DEST -> COPY_SOURCE
		"01000000" + "00000000" + "0040000000000000" + // ATOMIC_COPY, padding, hResource
		"010000000200000003000000040000000500000006000000" + // Subresources
		"0001000000000000" + "8001000000000000" // Range
	assert.Equal(t, want, hex.EncodeToString(raw))
	require.Len(t, raw, Barrier0088Size)

	for i, b := range sampleBarriers()[:3] {
		r94 := AppendEncodedBarriers(nil, []Barrier{b})
		r88 := AppendEncodedBarriers0088(nil, bs[i:i+1])
		assert.Equal(t, append(r94, make([]byte, 8)...), r88, "record %d", i)
	}
}

func TestEncodeDecodeRoundTrip0088(t *testing.T) {
	in := sample0088()
	raw := AppendEncodedBarriers0088(nil, in)
	require.Len(t, raw, len(in)*80)
	out, err := DecodeBarriers0088(raw)
	require.NoError(t, err)
	assert.Equal(t, in, out)
	// A 0094 ranged record is not a 0088 one: the flags ACQUIRE and RELEASE
	// are undefined there.
	bad := append([]byte(nil), raw...)
	binary.LittleEndian.PutUint32(bad[3*80+24:], uint32(RangedBarrierFlagAtomicCopy|RangedBarrierFlagRelease))
	out, err = DecodeBarriers0088(bad)
	assert.Len(t, out, 3)
	assert.EqualError(t, err, "record 3, byte offset 264: RangedBarrier.Flags = 0x5: malformed record: undefined D3D12DDI_RANGED_BARRIER_FLAGS bits 0x4")
	_, err = DecodeBarriers0088(raw[:80+79]) // a texture record: its members end at 68
	assert.EqualError(t, err, "record 1, byte offset 148 (padding): truncated record: 79 of 80 bytes of a D3D12DDIARG_BARRIER_0088 present")
}

func TestDecodeIgnoresPaddingAndKeepsUndefinedSyncAccessBits(t *testing.T) {
	raw := AppendEncodedBarriers(nil, sampleBarriers())
	binary.LittleEndian.PutUint32(raw[4:], 0xdeadbeef)                         // Type padding
	binary.LittleEndian.PutUint32(raw[72+68:], 0xdeadbeef)                     // texture tail padding
	binary.LittleEndian.PutUint32(raw[3*72+12:], 0xdeadbeef)                   // ranged padding after Flags
	binary.LittleEndian.PutUint32(raw[3*72+28:], 0xdeadbeef)                   // ranged padding after Subresource
	binary.LittleEndian.PutUint32(raw[8:], uint32(SyncComputeShading|0x40000)) // undefined sync bit
	out, err := DecodeBarriers(raw)
	require.NoError(t, err)
	assert.Equal(t, SyncComputeShading|0x40000, out[0].Global().SyncBefore)
	assert.Equal(t, sampleBarriers()[1:], out[1:])
	// Re-encoding zeroes the padding.
	again := AppendEncodedBarriers(nil, out)
	assert.Equal(t, uint32(0), binary.LittleEndian.Uint32(again[4:]))
	assert.Equal(t, uint32(0), binary.LittleEndian.Uint32(again[72+68:]))
}

func TestDecodeErrorsNameRecordOffsetFieldAndValue(t *testing.T) {
	good := AppendEncodedBarriers(nil, sampleBarriers())
	mutate := func(off int, v uint32) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	cases := []struct {
		name     string
		data     []byte
		sentinel error
		index    int
		offset   int
		field    string
		value    uint64
		message  string
		decoded  int
	}{
		{"bad type", mutate(2*72, 9), ErrMalformed, 2, 144, "Type", 9,
			"record 2, byte offset 144: Type = 0x9: malformed record: not a D3D12DDI_BARRIER_TYPE value", 2},
		{"bad layout", mutate(72+28, 77), ErrMalformed, 1, 100, "TextureBarrier.LayoutAfter", 77,
			"record 1, byte offset 100: TextureBarrier.LayoutAfter = 0x4d: malformed record: not a D3D12DDI_BARRIER_LAYOUT value", 1},
		{"bad texture flags", mutate(72+64, 3), ErrMalformed, 1, 136, "TextureBarrier.Flags", 3,
			"record 1, byte offset 136: TextureBarrier.Flags = 0x3: malformed record: undefined D3D12DDI_TEXTURE_BARRIER_FLAGS_0088 bits 0x2", 1},
		{"bad ranged flags", mutate(3*72+8, 0x9), ErrMalformed, 3, 224, "RangedBarrier.Flags", 9,
			"record 3, byte offset 224: RangedBarrier.Flags = 0x9: malformed record: undefined D3D12DDI_RANGED_BARRIER_FLAGS_0094 bits 0x8", 3},
		{"cut inside the type", good[:2], ErrTruncated, 0, 0, "Type", 2,
			"record 0, byte offset 0 (Type): truncated record: 2 of 72 bytes of a D3D12DDIARG_BARRIER_0094 present", 0},
		{"cut inside a texture record", good[:72+35], ErrTruncated, 1, 104, "TextureBarrier.hResource", 35,
			"record 1, byte offset 104 (TextureBarrier.hResource): truncated record: 35 of 72 bytes of a D3D12DDIARG_BARRIER_0094 present", 1},
		{"cut in the tail padding", good[:72+70], ErrTruncated, 1, 140, "padding", 70,
			"record 1, byte offset 140 (padding): truncated record: 70 of 72 bytes of a D3D12DDIARG_BARRIER_0094 present", 1},
		{"cut in the ranged range", good[:3*72+36], ErrTruncated, 3, 248, "RangedBarrier.Range.Begin", 36,
			"record 3, byte offset 248 (RangedBarrier.Range.Begin): truncated record: 36 of 72 bytes of a D3D12DDIARG_BARRIER_0094 present", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := DecodeBarriers(c.data)
			require.Error(t, err)
			var de *DecodeError
			require.True(t, errors.As(err, &de))
			assert.ErrorIs(t, err, c.sentinel)
			assert.Equal(t, c.index, de.Index)
			assert.Equal(t, c.offset, de.Offset)
			assert.Equal(t, c.field, de.Field)
			assert.Equal(t, c.value, de.Value)
			assert.Equal(t, c.message, err.Error())
			assert.Len(t, out, c.decoded, "records before the bad one are returned")
		})
	}
}

func TestDecodeEmptyInput(t *testing.T) {
	out, err := DecodeBarriers(nil)
	require.NoError(t, err)
	assert.Empty(t, out)
}

func TestDecodeAllocatesNothingWithRoom(t *testing.T) {
	raw := AppendEncodedBarriers(nil, sampleBarriers())
	dst := make([]Barrier, 0, 8)
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		dst, err = AppendDecodedBarriers(dst[:0], raw)
		if err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

func TestCommonAndFields(t *testing.T) {
	bs := sampleBarriers()
	g, ok := bs[1].Common()
	require.True(t, ok)
	assert.Equal(t, GlobalBarrier{SyncRenderTarget, SyncPixelShading, AccessRenderTarget, AccessShaderResource}, g)
	_, ok = bs[3].Common()
	assert.False(t, ok)

	f := bs[2].Fields()
	require.Len(t, f, 6)
	assert.Equal(t, BarrierField{"BufferBarrier.hResource", 24, 0x2000}, f[5])
}

// FuzzDecodeBarriers: any input decodes or fails with a *DecodeError, never
// panics; what decodes re-encodes to bytes that decode to the same barriers.
func FuzzDecodeBarriers(f *testing.F) {
	good := AppendEncodedBarriers(nil, sampleBarriers())
	f.Add(good)
	f.Add(good[:100])
	f.Add([]byte{})
	f.Add([]byte{9, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := DecodeBarriers(data)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error is not a *DecodeError: %v", err)
			}
			// The offset names the bad or missing member, so it lies inside
			// the record, though for a truncated one perhaps past the input.
			if de.Offset < de.Index*BarrierSize || de.Offset >= (de.Index+1)*BarrierSize {
				t.Fatalf("offset %d outside record %d", de.Offset, de.Index)
			}
			_ = err.Error()
			return
		}
		again, err := DecodeBarriers(AppendEncodedBarriers(nil, out))
		if err != nil {
			t.Fatalf("re-encoded records do not decode: %v", err)
		}
		if len(again) != len(out) {
			t.Fatalf("%d records became %d", len(out), len(again))
		}
		for i := range out {
			a, b := out[i].Fields(), again[i].Fields()
			for j := range a {
				if a[j] != b[j] {
					t.Fatalf("record %d field %s: %x became %x", i, a[j].Name, a[j].Value, b[j].Value)
				}
			}
		}
	})
}

// FuzzDecodeBarriers0088 is FuzzDecodeBarriers for 0088 records.
func FuzzDecodeBarriers0088(f *testing.F) {
	good := AppendEncodedBarriers0088(nil, sample0088())
	f.Add(good)
	f.Add(good[:100])
	f.Add([]byte{})
	f.Add([]byte{3, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := DecodeBarriers0088(data)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error is not a *DecodeError: %v", err)
			}
			if de.Offset < de.Index*Barrier0088Size || de.Offset >= (de.Index+1)*Barrier0088Size {
				t.Fatalf("offset %d outside record %d", de.Offset, de.Index)
			}
			_ = err.Error()
			return
		}
		again, err := DecodeBarriers0088(AppendEncodedBarriers0088(nil, out))
		if err != nil {
			t.Fatalf("re-encoded records do not decode: %v", err)
		}
		if len(again) != len(out) {
			t.Fatalf("%d records became %d", len(out), len(again))
		}
		for i := range out {
			if a, b := out[i].Fields(), again[i].Fields(); !slices.Equal(a, b) {
				t.Fatalf("record %d: %v became %v", i, a, b)
			}
		}
	})
}

// TestHeaderSpellingsParse: every spelling d3d12umddi.h uses for the names
// ebref prints without prefix parses, and so do the spec's.
func TestHeaderSpellingsParse(t *testing.T) {
	tf, err := ParseTextureBarrierFlags("D3D12DDI_TEXTURE_BARRIER_FLAG_DISCARD")
	require.NoError(t, err)
	assert.Equal(t, TextureBarrierFlagDiscard, tf)
	tf, err = ParseTextureBarrierFlags("D3D12DDI_TEXTURE_BARRIER_0088_FLAG_DISCARD")
	require.NoError(t, err)
	assert.Equal(t, TextureBarrierFlagDiscard, tf)
	for s, want := range map[string]RangedBarrierFlags{
		"D3D12DDI_RANGED_BARRIER_FLAG_NONE_0094":                                                  0,
		"D3D12DDI_RANGED_BARRIER_FLAG_ATOMIC_COPY_0094":                                           RangedBarrierFlagAtomicCopy,
		"D3D12DDI_RANGED_BARRIER_FLAG_ATOMIC_COPY_0094|D3D12DDI_RANGED_BARRIER_FLAG_ACQUIRE_0094": RangedBarrierFlagAtomicCopy | RangedBarrierFlagAcquire,
		"D3D12DDI_RANGED_BARRIER_FLAG_RELEASE_0094":                                               RangedBarrierFlagRelease,
		"D3D12DDI_RANGED_BARRIER_0088_FLAG_ATOMIC_COPY":                                           RangedBarrierFlagAtomicCopy,
		"ATOMIC_COPY|RELEASE":                                                                     RangedBarrierFlagAtomicCopy | RangedBarrierFlagRelease,
	} {
		got, err := ParseRangedBarrierFlags(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	_, err = ParseRangedBarrierFlags("ACQUIRE_0094") // the suffix goes with the prefix
	assert.ErrorIs(t, err, ErrUnknownName)

	l, err := ParseBarrierLayout("D3D12DDI_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE")
	require.NoError(t, err)
	assert.Equal(t, BarrierLayout(31), l)
	l, err = ParseBarrierLayout("LEGACY_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE")
	require.NoError(t, err)
	assert.Equal(t, BarrierLayout(31), l)
	s, err := ParseBarrierSync("D3D12DDI_BARRIER_SYNC_INDEX_INPUT")
	require.NoError(t, err)
	assert.Equal(t, SyncInputAssembler, s)

	rp, err := ParseRenderPassTier("D3D12DDI_RENDER_PASS_TIER_NOT_SUPPORTED")
	require.NoError(t, err)
	assert.Equal(t, RenderPassTier0, rp)
	assert.Equal(t, "TIER_NOT_SUPPORTED", RenderPassTier0.String())
	cn, err := ParseCrossNodeSharingTier("D3D12DDI_CROSS_NODE_SHARING_TIER_0041_3")
	require.NoError(t, err)
	assert.Equal(t, CrossNodeSharingTier3, cn)
	assert.Equal(t, "TIER_0041_3", CrossNodeSharingTier3.String())
	_, err = ParseTiledResourcesTier("TIER_4")
	assert.ErrorIs(t, err, ErrUnknownName, "tier 4 is not a DDI value")
	hf, err := ParseHeapFlags("D3D12DDI_HEAP_FLAG_0041_DENY_L0_DEMOTION")
	require.NoError(t, err)
	assert.Equal(t, HeapFlagDenyL0Demotion, hf)
	assert.Equal(t, HeapFlags(0x40), hf)
}
