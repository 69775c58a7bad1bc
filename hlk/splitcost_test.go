package hlk

import (
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// splitCostFrames are frames written twice, with a single barrier and with
// a split pair: "BEGIN kind R sync X Y rest" is the single barrier (sync
// X -> Y) or the begin (X -> SPLIT), "END kind R sync X Y rest" nothing or
// the end (SPLIT -> Y). A render target copied after work that does not
// touch it; one sampled in the next list; a UAV texture and a buffer.
const splitCostFrames = `
scenario "render target copied"
texture RT 512x512 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET
buffer OTHER 16384 flags UNORDERED_ACCESS
buffer OUT 1048576
queue Q DIRECT
list L DIRECT
  draw rt RT
  BEGIN texture RT sync RENDER_TARGET COPY access RENDER_TARGET -> COPY_SOURCE layout RENDER_TARGET -> COMMON
  dispatch uav OTHER
  END texture RT sync RENDER_TARGET COPY access RENDER_TARGET -> COPY_SOURCE layout RENDER_TARGET -> COMMON
  copy-texture-to-buffer OUT 0 RT@0
end
execute Q L
expect reference RT OUT

scenario "render target sampled in the next list"
texture RT 512x512 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET
texture OUT 64x64 flags RENDER_TARGET layout RENDER_TARGET
buffer OTHER 16384 flags UNORDERED_ACCESS
queue Q DIRECT
list A DIRECT
  draw rt RT
  BEGIN texture RT sync RENDER_TARGET PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE
  dispatch uav OTHER
end
list B DIRECT
  END texture RT sync RENDER_TARGET PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE
  draw ps-srv RT rt OUT
end
execute Q A B
expect reference RT OUT

scenario "UAV texture and buffer"
texture T 256x256 flags UNORDERED_ACCESS|SHADER_RESOURCE layout UNORDERED_ACCESS
buffer B 65536 flags UNORDERED_ACCESS
buffer OTHER 16384 flags UNORDERED_ACCESS
texture OUT 64x64 flags RENDER_TARGET layout RENDER_TARGET
queue Q DIRECT
list L DIRECT
  dispatch uav T B
  BEGIN texture T sync COMPUTE_SHADING PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE
  BEGIN buffer B sync COMPUTE_SHADING PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE
  dispatch uav OTHER
  END texture T sync COMPUTE_SHADING PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE
  END buffer B sync COMPUTE_SHADING PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE
  draw ps-srv T B rt OUT
end
execute Q L
expect reference T B OUT
`

// splitCostForm writes splitCostFrames with single barriers or split
// pairs.
func splitCostForm(split bool) string {
	var out []string
	for _, line := range strings.Split(splitCostFrames, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[0] != "BEGIN" && f[0] != "END" {
			out = append(out, line)
			continue
		}
		before, after := f[4], f[5]
		switch {
		case !split && f[0] == "END":
			continue
		case split && f[0] == "BEGIN":
			after = "SPLIT"
		case split:
			before = "SPLIT"
		}
		out = append(out, "  barrier "+strings.Join(append([]string{f[1], f[2], "sync", before, "->", after}, f[6:]...), " "))
	}
	return strings.Join(out, "\n")
}

// Per-call costs add up to the frame's barrier cost (issue 34): each
// list's barrier calls' CommandCycles, found by MARKER, sum to its
// BarrierCycles, found by the calls' records; every cycle of background
// work the machine ran is carried by a call; and a split pair costs what
// the single barrier costs when the frames do (the begin carries the work
// it starts: before, a pair showed 22 + 10 cycles against 884,792).
func TestSplitPairCostIsItsCalls(t *testing.T) {
	single, err := scenario.Parse("single.ebs", splitCostForm(false), nil)
	require.NoError(t, err)
	split, err := scenario.Parse("split.ebs", splitCostForm(true), nil)
	require.NoError(t, err)
	require.Len(t, split, len(single))
	for _, name := range hwmodel.ProfileNames() {
		p, err := hwmodel.LookupProfile(name)
		require.NoError(t, err)
		for i := range split {
			var barrier [2]uint64
			var frame [2]uint64
			for form, sc := range []*scenario.Scenario{single[i], split[i]} {
				r := Run(Reference, sc, p, "")
				require.Equal(t, Pass, r.Status, "%s on %s: %v", sc.Name(), name, r.Failures)
				var async, carried uint64
				for _, e := range r.Engines {
					async += e.Counters.AsyncCycles
				}
				for _, l := range r.Lists {
					var sum uint64
					for _, c := range l.Calls {
						sum += l.CommandCycles(c.Ordinal)
						carried += l.Costs[c.Ordinal].AsyncCycles
						if form == 1 && l.Costs[c.Ordinal].AsyncCycles > 0 {
							assert.GreaterOrEqual(t, l.Background[c.Ordinal], l.Costs[c.Ordinal].AsyncCycles)
						}
					}
					assert.Equal(t, l.BarrierCycles, sum, "%s on %s, list %s: the calls' costs against the frame's barrier cost", sc.Name(), name, l.Name)
					barrier[form] += l.BarrierCycles
				}
				assert.Equal(t, async, carried, "%s on %s: background work no call carries", sc.Name(), name)
				frame[form] = r.Counters.Cycles
			}
			// The frames cost the same (the work between the halves is too
			// short to hide the barrier's), and so do their barriers: what
			// the begin started is its cost, not lost beside the CP.
			require.InDelta(t, float64(frame[0]), float64(frame[1]), float64(frame[0])/100, "%s on %s", single[i].Name(), name)
			assert.InDelta(t, float64(barrier[0]), float64(barrier[1]), max(float64(barrier[0])/100, 64),
				"%s on %s: the single barrier costs %d cycles, the split pair %d", single[i].Name(), name, barrier[0], barrier[1])
		}
	}
}
