package umd

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd/translator"
)

// refuser refuses every call; failing opens fail.
type refuser struct{ failOpen bool }

func (o refuser) Name() string { return "refuser" }
func (o refuser) Open(*hwmodel.Profile) (translator.Translator, error) {
	if o.failOpen {
		return nil, errors.New("no such GPU")
	}
	return o, nil
}
func (refuser) Translate(*translator.Request, []uint32) ([]uint32, error) {
	return nil, &translator.Refusal{Reason: "not today"}
}

// TestTranslatorFailureStopsTheList: a translator's failure is the list's
// error, from Err and Close, and the list records nothing after it, one
// call later; a Reset records anew, and a device whose translator cannot
// be opened is not opened.
func TestTranslatorFailureStopsTheList(t *testing.T) {
	e := newEnv(t, "discrete", Options{Translator: refuser{}})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	cl := e.list(ddi.CommandListTypeDirect)
	uav := buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, b)
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
	before := cl.Buffer().Len()
	cl.Barrier([]ddi.Barrier{uav})
	var te *translator.Error
	require.ErrorAs(t, cl.Err(), &te)
	assert.Equal(t, translator.ErrRefused, te.Kind)
	assert.Contains(t, te.Error(), "translator refuser: Barrier #2 (1 records): the translator refused the call: not today")
	assert.Equal(t, before, cl.Buffer().Len(), "the refused call records nothing")
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
	assert.Equal(t, before, cl.Buffer().Len(), "nor does the command after it")
	assert.ErrorAs(t, cl.Close(), &te)
	require.NoError(t, cl.Reset())
	assert.NoError(t, cl.Err(), "a Reset records anew")
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
	assert.Greater(t, cl.Buffer().Len(), 0)

	p, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	_, err = Open(p, Options{Translator: refuser{failOpen: true}})
	assert.ErrorContains(t, err, "umd: opening translator refuser on discrete: no such GPU")
	d, err := Open(p, Options{Translator: refuser{}})
	require.NoError(t, err)
	assert.Nil(t, d.policy, "a translator that is no Policer keeps the reference's table")
}
