package ddi

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
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
			Subresources: SubresourceRange{AllSubresources, 0, 0, 0, 0, 0},
			Range:        Range{Begin: 0x40, End: 0x80},
		}),
	}
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
// Subresources 40, Flags 64) and of a ranged barrier (Flags 8, hResource 16,
// Subresources 24, Range 48).
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
	want = "03000000" + "00000000" + "03000000" + "00000000" + "0030000000000000" +
		"ffffffff0000000000000000000000000000000000000000" +
		"4000000000000000" + "8000000000000000" +
		"0000000000000000" // the union's last 8 bytes, unused by a ranged barrier
	assert.Equal(t, want, hex.EncodeToString(raw))
}

func TestDecodeIgnoresPaddingAndKeepsUndefinedSyncAccessBits(t *testing.T) {
	raw := AppendEncodedBarriers(nil, sampleBarriers())
	binary.LittleEndian.PutUint32(raw[4:], 0xdeadbeef)                         // Type padding
	binary.LittleEndian.PutUint32(raw[72+68:], 0xdeadbeef)                     // texture tail padding
	binary.LittleEndian.PutUint32(raw[3*72+12:], 0xdeadbeef)                   // ranged padding after Flags
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
			"record 1, byte offset 136: TextureBarrier.Flags = 0x3: malformed record: undefined D3D12DDI_TEXTURE_BARRIER_0088_FLAGS_0088 bits 0x2", 1},
		{"bad ranged flags", mutate(3*72+8, 0x9), ErrMalformed, 3, 224, "RangedBarrier.Flags", 9,
			"record 3, byte offset 224: RangedBarrier.Flags = 0x9: malformed record: undefined D3D12DDI_RANGE_BARRIER_FLAGS_0094 bits 0x8", 3},
		{"cut inside the type", good[:2], ErrTruncated, 0, 0, "Type", 2,
			"record 0, byte offset 0 (Type): truncated record: 2 of 72 bytes present", 0},
		{"cut inside a texture record", good[:72+35], ErrTruncated, 1, 104, "TextureBarrier.hResource", 35,
			"record 1, byte offset 104 (TextureBarrier.hResource): truncated record: 35 of 72 bytes present", 1},
		{"cut in the tail padding", good[:72+70], ErrTruncated, 1, 140, "padding", 70,
			"record 1, byte offset 140 (padding): truncated record: 70 of 72 bytes present", 1},
		{"cut in the ranged range", good[:3*72+50], ErrTruncated, 3, 264, "RangedBarrier.Range.Begin", 50,
			"record 3, byte offset 264 (RangedBarrier.Range.Begin): truncated record: 50 of 72 bytes present", 3},
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
