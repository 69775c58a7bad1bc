package umd

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPredication: SetPredication's operation decides, from the predicate
// the CP captures, which copies run; NULL and the end of the list end it;
// the model and the reference skip the same ones, and the packets show it
// (the predicated flag on the predicable work, off after NULL).
func TestPredication(t *testing.T) {
	for _, c := range []struct {
		name      string
		value     uint64
		op        ddi.PredicationOp
		skipFirst bool
	}{
		{"EQUAL_ZERO on zero", 0, ddi.PredicationOpEqualZero, true},
		{"EQUAL_ZERO on one", 1, ddi.PredicationOpEqualZero, false},
		{"NOT_EQUAL_ZERO on the top bit", 1 << 63, ddi.PredicationOpNotEqualZero, true},
		{"NOT_EQUAL_ZERO on zero", 0, ddi.PredicationOpNotEqualZero, false},
	} {
		for _, profile := range []string{"discrete", "coherent"} {
			t.Run(c.name+"/"+profile, func(t *testing.T) {
				e := newEnv(t, profile, Options{})
				up := e.buffer("UP", 4096, 0, resource.HeapUpload)
				var pred [8]byte
				binary.LittleEndian.PutUint64(pred[:], c.value)
				require.NoError(t, e.d.WriteBuffer(up, 0, pred[:]))
				require.NoError(t, e.d.WriteBuffer(up, 256, bytes.Repeat([]byte{0x5a}, 256)))
				p := e.buffer("P", 256, 0, resource.HeapDefault)
				out := e.buffer("OUT", 4096, 0, resource.HeapDefault)
				l := e.list(ddi.CommandListTypeDirect)
				l.CopyBufferRegion(p, 0, up, 0, 8)
				l.Barrier([]ddi.Barrier{ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: ddi.SyncCopy, SyncAfter: ddi.SyncPredication,
					AccessBefore: ddi.AccessCopyDest, AccessAfter: ddi.AccessPredication, Resource: p})})
				l.SetPredication(p, 0, c.op)
				l.CopyBufferRegion(out, 0, up, 256, 256)
				l.SetPredication(0, 0, ddi.PredicationOpEqualZero)
				l.CopyBufferRegion(out, 256, up, 256, 256)
				l.SetPredication(p, 0, c.op) // still on at Close
				m := e.list(ddi.CommandListTypeDirect)
				m.CopyBufferRegion(out, 512, up, 256, 256)

				var works []string
				for _, ln := range cmdbuf.Listing(l.Buffer(), nil) {
					if ln.Op == "WORK" {
						works = append(works, ln.Text)
					}
				}
				require.Len(t, works, 6)
				assert.NotContains(t, works[0], "predicated", "before SetPredication")
				assert.Contains(t, works[1], "PREDICATION")
				assert.Contains(t, works[2], "predicated")
				assert.NotContains(t, works[3], "[", "NULL reads nothing")
				assert.NotContains(t, works[4], "predicated", "after NULL")

				e.run(l, m)
				e.clean(out, p)
				got, err := e.d.Contents(out)
				require.NoError(t, err)
				first := bytes.Repeat([]byte{0x5a}, 256)
				if c.skipFirst {
					first = make([]byte, 256)
				}
				assert.Equal(t, first, got[:256], "the predicated copy")
				assert.Equal(t, bytes.Repeat([]byte{0x5a}, 512), got[256:768], "after NULL, and in the next list")
			})
		}
	}
}

// TestSetPredicationRejects: an unaligned offset, an operation that is none,
// and a handle of nothing (NULL is none: it ends predication).
func TestSetPredicationRejects(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	p := e.buffer("P", 256, 0, resource.HeapDefault)
	for _, c := range []struct {
		name  string
		rec   func(*CommandList)
		id    MessageID
		field string
	}{
		{"unaligned", func(l *CommandList) { l.SetPredication(p, 4, ddi.PredicationOpEqualZero) }, MsgSetPredicationInvalid, "AlignedBufferOffset"},
		{"no such operation", func(l *CommandList) { l.SetPredication(p, 0, 7) }, MsgSetPredicationInvalid, "Operation"},
		{"past the buffer", func(l *CommandList) { l.SetPredication(p, 256, ddi.PredicationOpEqualZero) }, MsgInvalidWork, "pBuffer"},
		{"a handle of nothing", func(l *CommandList) { l.SetPredication(0x9999, 0, ddi.PredicationOpEqualZero) }, MsgInvalidHandle, "pBuffer"},
	} {
		l := e.list(ddi.CommandListTypeDirect)
		c.rec(l)
		err := l.Close()
		var m *Message
		require.ErrorAs(t, err, &m, c.name)
		assert.Equal(t, c.id, m.ID, "%s: %v", c.name, err)
		assert.Equal(t, c.field, m.Field, c.name)
	}
	l := e.list(ddi.CommandListTypeDirect)
	l.SetPredication(0, 0, ddi.PredicationOpNotEqualZero)
	assert.NoError(t, l.Close(), "NULL ends predication, whatever the offset and operation")
}
