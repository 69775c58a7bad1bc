package hlk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/internal/docgen"
)

const translationDoc = "../docs/translation.md"

// legacyForms prints what representative legacy barriers become at the
// Barrier DDI.
func legacyForms(t *testing.T) string {
	const r = ddi.HResource(2)
	tex, buf := legacy.Resource{Texture: true}, legacy.Resource{}
	split := func(b legacy.Barrier, f legacy.BarrierFlags) legacy.Barrier { b.Flags = f; return b }
	var b strings.Builder
	b.WriteString("| legacy barrier | on | the Barrier DDI gets |\n|---|---|---|\n")
	for _, c := range []struct {
		text string
		on   string
		b    legacy.Barrier
		res  legacy.Resource
	}{
		{"transition RENDER_TARGET -> PIXEL_SHADER_RESOURCE", "a texture", legacy.Transition(r, legacy.AllSubresources, ddi.StateRenderTarget, ddi.StatePixelShaderResource), tex},
		{"transition UNORDERED_ACCESS -> NON_PIXEL_SHADER_RESOURCE|COPY_SOURCE", "a texture", legacy.Transition(r, legacy.AllSubresources, ddi.StateUnorderedAccess, ddi.StateNonPixelShaderResource|ddi.StateCopySource), tex},
		{"transition COMMON -> COPY_DEST, subresource 1", "a texture", legacy.Transition(r, 1, ddi.StateCommon, ddi.StateCopyDest), tex},
		{"transition COPY_DEST -> GENERIC_READ", "a buffer", legacy.Transition(r, legacy.AllSubresources, ddi.StateCopyDest, ddi.StateGenericRead), buf},
		{"transition RENDER_TARGET -> PIXEL_SHADER_RESOURCE, BEGIN_ONLY", "a texture", split(legacy.Transition(r, legacy.AllSubresources, ddi.StateRenderTarget, ddi.StatePixelShaderResource), legacy.FlagBeginOnly), tex},
		{"transition RENDER_TARGET -> PIXEL_SHADER_RESOURCE, END_ONLY", "a texture", split(legacy.Transition(r, legacy.AllSubresources, ddi.StateRenderTarget, ddi.StatePixelShaderResource), legacy.FlagEndOnly), tex},
		{"uav", "a texture", legacy.UAV(r), tex},
		{"uav", "a buffer", legacy.UAV(r), buf},
		{"uav NULL", "", legacy.UAV(0), buf},
		{"aliasing (any)", "", legacy.Aliasing(r, r+1), buf},
	} {
		e, err := legacy.Translate(c.b, c.res, ddi.CommandListTypeDirect)
		require.NoError(t, err, c.text)
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", c.text, c.on, e.String())
	}
	return b.String()
}

// legacyDependency is one dependency written both ways: the legacy
// ResourceBarrier an application writes and the enhanced barrier an
// expert writes for it, between the same work.
type legacyDependency struct {
	name            string
	decls, before   []string // resources (declared once with state, once with layout: {L}), work before
	after           []string // work after
	legacyBarriers  []string
	enhancedBarrier []string
}

var legacyDependencies = []legacyDependency{
	{"a render target sampled by the next draw",
		[]string{"texture T 256x256 flags RENDER_TARGET|SHADER_RESOURCE {RENDER_TARGET}", "texture OUT 256x256 flags RENDER_TARGET {RENDER_TARGET}"},
		[]string{"draw rt T"}, []string{"draw ps-srv T rt OUT"},
		[]string{"resource-barrier transition T RENDER_TARGET -> PIXEL_SHADER_RESOURCE"},
		[]string{"barrier texture T sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE"}},
	{"a render target copied out",
		[]string{"texture T 256x256 flags RENDER_TARGET {RENDER_TARGET}", "buffer OUT 524288 {}"},
		[]string{"draw rt T"}, []string{"copy-texture-to-buffer OUT 0 T@0"},
		[]string{"resource-barrier transition T RENDER_TARGET -> COPY_SOURCE"},
		[]string{"barrier texture T sync RENDER_TARGET -> COPY access RENDER_TARGET -> COPY_SOURCE layout RENDER_TARGET -> DIRECT_QUEUE_COPY_SOURCE"}},
	{"a compute-written texture read by compute",
		[]string{"texture T 256x256 flags UNORDERED_ACCESS|SHADER_RESOURCE {UNORDERED_ACCESS}", "buffer OUT 262144 flags UNORDERED_ACCESS {}"},
		[]string{"dispatch uav T"}, []string{"dispatch srv T uav OUT"},
		[]string{"resource-barrier transition T UNORDERED_ACCESS -> NON_PIXEL_SHADER_RESOURCE"},
		[]string{"barrier texture T sync COMPUTE_SHADING -> COMPUTE_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE"}},
	{"a UAV buffer written twice",
		[]string{"buffer B 262144 flags UNORDERED_ACCESS {}"},
		[]string{"dispatch uav B"}, []string{"dispatch uav B"},
		[]string{"resource-barrier uav B"},
		[]string{"barrier buffer B sync COMPUTE_SHADING -> COMPUTE_SHADING access UNORDERED_ACCESS -> UNORDERED_ACCESS"}},
	{"an upload copied into a buffer read as vertices",
		[]string{"buffer UP 262144 in upload", "buffer B 262144 {}", "texture OUT 256x256 flags RENDER_TARGET {RENDER_TARGET}"},
		[]string{"copy-buffer B 0 UP 0 262144"}, []string{"draw vb B rt OUT"},
		[]string{"resource-barrier transition B COPY_DEST -> VERTEX_AND_CONSTANT_BUFFER"},
		[]string{"barrier buffer B sync COPY -> VERTEX_SHADING access COPY_DEST -> VERTEX_BUFFER"}},
}

// dependencyCase writes one form of a dependency as a case.
func dependencyCase(d legacyDependency, legacyForm bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %q\n", d.name)
	for _, decl := range d.decls {
		i := strings.Index(decl, "{")
		if i < 0 {
			b.WriteString(decl + "\n")
			continue
		}
		state := decl[i+1 : len(decl)-1]
		decl = strings.TrimSpace(decl[:i])
		switch {
		case legacyForm && state == "":
			decl += " state COMMON"
		case legacyForm:
			decl += " state " + state
		case state != "":
			decl += " layout " + state
		}
		b.WriteString(decl + "\n")
	}
	b.WriteString("queue Q DIRECT\nlist L DIRECT\n")
	lines := append(append([]string{}, d.before...), d.enhancedBarrier...)
	if legacyForm {
		lines = append(append([]string{}, d.before...), d.legacyBarriers...)
	}
	for _, l := range append(lines, d.after...) {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("end\nexecute Q L\nexpect reference\nexpect no-hazard\n")
	return b.String()
}

// legacyCosts runs each dependency both ways on every profile.
func legacyCosts(t *testing.T) string {
	var b strings.Builder
	b.WriteString("| dependency | profile | legacy: cycles, stalls, lines flushed/invalidated, bytes decompressed | enhanced: the same | legacy/enhanced cycles |\n|---|---|---|---|---|\n")
	for _, d := range legacyDependencies {
		for _, p := range hwmodel.ProfileNames() {
			prof, err := hwmodel.LookupProfile(p)
			require.NoError(t, err)
			var cost [2]hwmodel.Counters
			for i, legacyForm := range []bool{true, false} {
				src := dependencyCase(d, legacyForm)
				cases, err := scenario.Parse("dependency.ebs", src, nil)
				require.NoError(t, err, src)
				r := Run(Reference, cases[0], prof, "")
				require.Equal(t, Pass, r.Status, "%s (legacy %t) on %s: %v\n%s", d.name, legacyForm, p, r.Failures, src)
				cost[i] = r.Counters
			}
			cell := func(c hwmodel.Counters) string {
				return fmt.Sprintf("%d, %d, %d/%d, %d", c.Cycles, c.StallCycles, scenario.Metrics["flushed-lines"](c), scenario.Metrics["invalidated-lines"](c), c.DecompressedBytes)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %.2f |\n", d.name, p, cell(cost[0]), cell(cost[1]),
				float64(cost[0].Cycles)/float64(max(cost[1].Cycles, 1)))
		}
	}
	return b.String()
}

// TestTranslationDocLegacyIsCurrent: docs/translation.md's legacy
// sections are what ddi/legacy translates and what each form costs (go
// test ./hlk -run TestTranslationDocLegacyIsCurrent -update rewrites
// them).
func TestTranslationDocLegacyIsCurrent(t *testing.T) {
	sections := []docgen.Section{
		{Name: "legacy-forms", Body: legacyForms(t)},
		{Name: "legacy-costs", Body: legacyCosts(t)},
	}
	require.NoError(t, docgen.Check(translationDoc, "go test ./hlk -update", sections, *update))
}
