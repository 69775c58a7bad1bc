package umd

import (
	"encoding/binary"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueriesResolve: occlusion, binary-occlusion and timestamp results
// resolved into a readback buffer have the model's values, equal the
// reference's, with no hazard, on every profile's kind of cache.
func TestQueriesResolve(t *testing.T) {
	for _, profile := range []string{"discrete", "unified3d", "coherent"} {
		t.Run(profile, func(t *testing.T) {
			e := newEnv(t, profile, Options{})
			qh, err := e.d.CreateQueryHeap(ddi.QueryHeapTypeOcclusion, 3)
			require.NoError(t, err)
			ts, err := e.d.CreateQueryHeap(ddi.QueryHeapTypeTimestamp, 1)
			require.NoError(t, err)
			rt := e.texture("RT", 16, 16, rtFlags, ddi.LayoutRenderTarget)
			rb := e.buffer("RB", 4096, 0, resource.HeapReadback)
			l := e.list(ddi.CommandListTypeDirect)
			l.BeginQuery(qh, ddi.QueryTypeOcclusion, 0)
			for range 3 {
				l.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
			}
			l.EndQuery(qh, ddi.QueryTypeOcclusion, 0)
			l.BeginQuery(qh, ddi.QueryTypeBinaryOcclusion, 1)
			l.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
			l.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
			l.EndQuery(qh, ddi.QueryTypeBinaryOcclusion, 1)
			l.BeginQuery(qh, ddi.QueryTypeBinaryOcclusion, 2)
			l.EndQuery(qh, ddi.QueryTypeBinaryOcclusion, 2)
			l.EndQuery(ts, ddi.QueryTypeTimestamp, 0)
			l.ResolveQueryData(qh, ddi.QueryTypeOcclusion, 0, 3, rb, 8)
			l.ResolveQueryData(ts, ddi.QueryTypeTimestamp, 0, 1, rb, 64)
			e.run(l)
			e.clean(rb)
			got, err := e.d.Contents(rb)
			require.NoError(t, err)
			assert.Equal(t, []uint64{3, 1, 0}, []uint64{binary.LittleEndian.Uint64(got[8:]),
				binary.LittleEndian.Uint64(got[16:]), binary.LittleEndian.Uint64(got[24:])})
			assert.NotZero(t, binary.LittleEndian.Uint64(got[64:]), "a timestamp")
		})
	}
}

// TestQueryRejects: each rule of the query commands, with its ID and
// field.
func TestQueryRejects(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	_, err := e.d.CreateQueryHeap(ddi.QueryHeapTypePipelineStatistics, 4)
	var m *Message
	require.ErrorAs(t, err, &m)
	assert.Equal(t, MsgCreateQueryHeapInvalid, m.ID)
	_, err = e.d.CreateQueryHeap(ddi.QueryHeapTypeOcclusion, MaxQueries+1)
	require.ErrorAs(t, err, &m)
	assert.Equal(t, "Count", m.Field)

	qh, err := e.d.CreateQueryHeap(ddi.QueryHeapTypeOcclusion, 4)
	require.NoError(t, err)
	b := e.buffer("B", 16, 0, resource.HeapDefault)
	ended := func(l *CommandList, i uint32) {
		l.BeginQuery(qh, ddi.QueryTypeOcclusion, i)
		l.EndQuery(qh, ddi.QueryTypeOcclusion, i)
	}
	for _, c := range []struct {
		name  string
		typ   ddi.CommandListType
		rec   func(*CommandList)
		id    MessageID
		field string
	}{
		{"beyond the heap", ddi.CommandListTypeDirect, func(l *CommandList) { ended(l, 3); l.ResolveQueryData(qh, ddi.QueryTypeOcclusion, 3, 2, b, 0) },
			MsgResolveQueryDataInvalid, "Index"},
		{"too small", ddi.CommandListTypeDirect, func(l *CommandList) {
			ended(l, 0)
			ended(l, 1)
			l.ResolveQueryData(qh, ddi.QueryTypeOcclusion, 0, 2, b, 8)
		},
			MsgResolveQueryDataInvalid, "pDestinationBuffer"},
		{"unaligned", ddi.CommandListTypeDirect, func(l *CommandList) { ended(l, 0); l.ResolveQueryData(qh, ddi.QueryTypeOcclusion, 0, 1, b, 4) },
			MsgResolveQueryDataInvalid, "AlignedDestinationBufferOffset"},
		{"no heap", ddi.CommandListTypeDirect, func(l *CommandList) { l.ResolveQueryData(0x7777, ddi.QueryTypeOcclusion, 0, 1, b, 0) },
			MsgResolveQueryDataInvalid, "pQueryHeap"},
		{"zero queries", ddi.CommandListTypeDirect, func(l *CommandList) { l.ResolveQueryData(qh, ddi.QueryTypeOcclusion, 0, 0, b, 0) },
			MsgResolveQueryDataInvalid, "Index"},
		{"a timestamp of an occlusion heap", ddi.CommandListTypeDirect, func(l *CommandList) { l.EndQuery(qh, ddi.QueryTypeTimestamp, 0) },
			MsgBeginEndQueryInvalid, "Type"},
		{"occlusion on compute", ddi.CommandListTypeCompute, func(l *CommandList) { l.BeginQuery(qh, ddi.QueryTypeOcclusion, 0) },
			MsgBeginEndQueryInvalid, "Type"},
		{"begun twice", ddi.CommandListTypeDirect, func(l *CommandList) {
			l.BeginQuery(qh, ddi.QueryTypeOcclusion, 0)
			l.BeginQuery(qh, ddi.QueryTypeOcclusion, 0)
		}, MsgBeginEndQueryInvalid, "Index"},
		{"open at Close", ddi.CommandListTypeDirect, func(l *CommandList) {
			l.BeginQuery(qh, ddi.QueryTypeOcclusion, 3)
			l.BeginQuery(qh, ddi.QueryTypeOcclusion, 1)
		}, MsgCloseOpenQuery, "Index"},
	} {
		l := e.list(c.typ)
		c.rec(l)
		err := l.Close()
		require.ErrorAs(t, err, &m, c.name)
		assert.Equal(t, c.id, m.ID, "%s: %v", c.name, err)
		assert.Equal(t, c.field, m.Field, c.name)
		if c.id == MsgCloseOpenQuery {
			assert.Equal(t, "1", m.Value, "the lowest open query")
		}
	}

	// A query no list has ended, on a fresh heap.
	fresh, err := e.d.CreateQueryHeap(ddi.QueryHeapTypeOcclusion, 1)
	require.NoError(t, err)
	l := e.list(ddi.CommandListTypeDirect)
	l.ResolveQueryData(fresh, ddi.QueryTypeOcclusion, 0, 1, b, 0)
	require.ErrorAs(t, l.Close(), &m)
	assert.Equal(t, MsgResolveQueryInvalidState, m.ID)
}
