package dditrace

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunk builds the event the entry probe writes for records first..first+n
// of a call of count records.
func chunk(entry int, g, time, count uint64, first, n int) []byte {
	stride := EntryPoints[entry].Capture.Stride()
	ev := make([]byte, evRecords+n*stride)
	le := binary.LittleEndian
	le.PutUint64(ev[evTime:], time)
	le.PutUint64(ev[evG:], g)
	le.PutUint64(ev[evGoid:], 7)
	le.PutUint64(ev[evList:], 0xc0ffee)
	le.PutUint32(ev[evPID:], 42)
	le.PutUint32(ev[evEntry:], uint32(entry))
	le.PutUint64(ev[evCount:], count)
	le.PutUint32(ev[evFirst:], uint32(first))
	le.PutUint32(ev[evN:], uint32(n))
	for i := range n * stride {
		ev[evRecords+i] = byte(first*stride + i)
	}
	return ev
}

func TestAssemblerJoinsInterleavedCalls(t *testing.T) {
	a := newAssembler()
	per := chunkRecords(Capture0094)
	// Two goroutines' calls, chunks interleaved; then an empty call.
	c, err := a.add(chunk(0, 1, 100, uint64(per+3), 0, per))
	require.NoError(t, err)
	assert.Nil(t, c)
	c, err = a.add(chunk(0, 2, 100, 2, 0, 2))
	require.NoError(t, err)
	require.NotNil(t, c)
	assert.Equal(t, uint64(2), c.G)
	assert.Len(t, c.Records, 2*72)
	c, err = a.add(chunk(0, 1, 100, uint64(per+3), per, 3))
	require.NoError(t, err)
	require.NotNil(t, c)
	assert.Equal(t, Call{Entry: 0, PID: 42, G: 1, Goroutine: 7, List: 0xc0ffee, Time: 100, Count: uint64(per + 3), Records: c.Records}, *c)
	for i, b := range c.Records {
		require.Equal(t, byte(i), b, "record byte %d", i)
	}
	c, err = a.add(chunk(1, 1, 200, 0, 0, 0))
	require.NoError(t, err)
	require.NotNil(t, c)
	assert.Empty(t, c.Records)
	assert.Zero(t, a.incomplete())
}

func TestAssemblerRefusesBadEvents(t *testing.T) {
	per := chunkRecords(Capture0094)
	for name, ev := range map[string][]byte{
		"short":            make([]byte, evRecords-1),
		"no capture":       chunk(2, 1, 1, 0, 0, 0),
		"past the count":   chunk(0, 1, 1, 2, 0, 3),
		"chunk too long":   chunk(0, 1, 1, uint64(2*per), 0, per+1),
		"records cut":      chunk(0, 1, 1, 5, 0, 5)[:evRecords+4*72],
		"entry past table": func() []byte { e := chunk(0, 1, 1, 0, 0, 0); e[evEntry] = 99; return e }(),
	} {
		_, err := newAssembler().add(ev)
		assert.Error(t, err, name)
	}
	// A lost chunk: the next one does not start where the call stands.
	a := newAssembler()
	_, err := a.add(chunk(0, 1, 1, uint64(3*per), 0, per))
	require.NoError(t, err)
	_, err = a.add(chunk(0, 1, 1, uint64(3*per), 2*per, per))
	assert.ErrorContains(t, err, "a chunk was lost")
	assert.Equal(t, 1, a.incomplete())
	// A chunk claiming another length cannot finish the call.
	_, err = a.add(chunk(0, 1, 1, uint64(per+1), per, 1))
	assert.ErrorContains(t, err, "joined a call of")
}

func TestTruncatedCalls(t *testing.T) {
	c := Call{Entry: 0, Count: maxCaptured(Capture0094)}
	assert.False(t, c.Truncated())
	c.Count++
	assert.True(t, c.Truncated())
}
