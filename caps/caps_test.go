package caps

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryMemberHasAValueAndAReason(t *testing.T) {
	for _, p := range hwmodel.Profiles() {
		o := Options(p)
		assert.Equal(t, ddi.True, o.EnhancedBarriersSupported, p.Name)
		ms := Members(o)
		require.Len(t, ms, reflect.TypeOf(o).NumField())
		for _, m := range ms {
			assert.NotEmpty(t, m.Why, "member %s has no documented reason", m.Name)
		}
	}
	// why names only real members.
	names := map[string]bool{}
	for _, m := range Members(ddi.OptionsData0089{}) {
		names[m.Name] = true
	}
	for n := range why {
		assert.True(t, names[n], "why documents %s, which OPTIONS_DATA_0089 lacks", n)
	}
}

func TestQueueLayouts(t *testing.T) {
	direct, ok := QueueLayouts(ddi.CommandListTypeDirect)
	require.True(t, ok)
	assert.Contains(t, direct, ddi.LayoutDirectQueueShaderResource)
	assert.Contains(t, direct, ddi.LayoutRenderTarget)
	compute, ok := QueueLayouts(ddi.CommandListTypeCompute)
	require.True(t, ok)
	assert.Contains(t, compute, ddi.LayoutComputeQueueUnorderedAccess)
	assert.NotContains(t, compute, ddi.LayoutRenderTarget)
	assert.NotContains(t, compute, ddi.LayoutDirectQueueShaderResource)
	_, ok = QueueLayouts(ddi.CommandListTypeBundle)
	assert.False(t, ok, "bundles take no barriers")
}

func TestReportJSON(t *testing.T) {
	p, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	b, err := json.Marshal(NewReport(p))
	require.NoError(t, err)
	var doc struct {
		Profile      string                     `json:"profile"`
		Options      map[string]json.RawMessage `json:"options"`
		Why          map[string]string          `json:"why"`
		QueueLayouts map[string][]string        `json:"queue_layouts"`
	}
	require.NoError(t, json.Unmarshal(b, &doc), "%s", b)
	assert.Equal(t, "discrete", doc.Profile)
	assert.JSONEq(t, `true`, string(doc.Options["EnhancedBarriersSupported"]))
	assert.JSONEq(t, `"TIER_3"`, string(doc.Options["ResourceBindingTier"]))
	assert.JSONEq(t, `16`, string(doc.Options["ShadingRateImageTileSize"]))
	assert.Len(t, doc.Options, reflect.TypeOf(ddi.OptionsData0089{}).NumField())
	assert.Len(t, doc.QueueLayouts, len(ddi.QueueTypes))
	assert.Contains(t, doc.QueueLayouts["COPY"], "COMMON")
}
