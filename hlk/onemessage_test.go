package hlk

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi/debug"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// TestOneMistakeOneMessage: a mistake in a legacy program is the legacy
// layer's to report, once, as the real debug layer does (#942 for a state a
// command cannot use, #527 for a first StateBefore the submission does not
// find); the driver, which sees the runtime's translation, adds nothing,
// and gives no advice on a barrier the runtime wrote (issue 34, item 3).
// An unexpected error fails a case, so each case passing with exactly its
// one expected message is the check.
func TestOneMistakeOneMessage(t *testing.T) {
	cases := []struct{ name, src string }{
		{"a texture read through an SRV in UNORDERED_ACCESS, twice", `
debug
texture T 32x32 flags UNORDERED_ACCESS|SHADER_RESOURCE state NON_PIXEL_SHADER_RESOURCE
buffer OUT 4096 flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  resource-barrier transition T NON_PIXEL_SHADER_RESOURCE -> UNORDERED_ACCESS
  dispatch uav T
  dispatch srv T uav OUT
  dispatch srv T uav OUT
end
execute Q L
expect error GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE in L count 2
expect error EBREF_INCOMPATIBLE_ACCESS count 0
expect error GPU_BASED_VALIDATION_INCOMPATIBLE_TEXTURE_LAYOUT count 0
`},
		{"a removed transition: the next list samples a render target", `
debug
texture T 64x64 flags RENDER_TARGET|SHADER_RESOURCE state PIXEL_SHADER_RESOURCE
texture OUT 64x64 flags RENDER_TARGET state RENDER_TARGET
queue Q DIRECT
list L DIRECT
  resource-barrier transition T PIXEL_SHADER_RESOURCE -> RENDER_TARGET
  draw rt T
end
list M DIRECT
  draw ps-srv T rt OUT
end
execute Q L
execute Q M
expect error GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE count 1
expect error EBREF_LAYOUT_MISMATCH count 0
expect error GPU_BASED_VALIDATION_INCOMPATIBLE_TEXTURE_LAYOUT count 0
`},
		{"a removed transition: the next list's StateBefore", `
debug
texture T 64x64 flags RENDER_TARGET|SHADER_RESOURCE state PIXEL_SHADER_RESOURCE
queue Q DIRECT
list L DIRECT
  resource-barrier transition T PIXEL_SHADER_RESOURCE -> RENDER_TARGET
  draw rt T
end
list M DIRECT
  resource-barrier transition T PIXEL_SHADER_RESOURCE -> RENDER_TARGET
  draw rt T
end
execute Q L
execute Q M
expect error RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH field StateBefore count 1
expect error BARRIER_INTEROP_INVALID_LAYOUT count 0
expect error EBREF_LAYOUT_MISMATCH count 0
`},
		{"PRESENT -> RENDER_TARGET draws no advice", `
debug
texture T 64x64 flags RENDER_TARGET state PRESENT
queue Q DIRECT
list L DIRECT
  resource-barrier transition T PRESENT -> RENDER_TARGET
  draw rt T
  resource-barrier transition T RENDER_TARGET -> PRESENT
end
execute Q L
expect warning EBREF_ACCESS_BEFORE_COMMON count 0
expect no-hazard
`},
	}
	p, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := scenario.Parse("t.ebs", c.src, nil)
			require.NoError(t, err)
			require.Len(t, sc, 1)
			r := Run(Reference, sc[0], p, "")
			assert.Equal(t, Pass, r.Status, "%v", r.Failures)
			for _, o := range r.Observed {
				if o.Severity == debug.SeverityWarning {
					assert.NotEqual(t, debug.MsgAccessBeforeCommon, o.ID, o.Text)
				}
			}
		})
	}
}
