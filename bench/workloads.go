package bench

import (
	"fmt"
	"strings"
)

// Workload is a frame structure written once as the application's intent:
// its resources, queues, lists, the work each list records and the
// submissions, in the scenario language without a barrier, a layout or a
// state (compile writes those per strategy). Shortcomings are the legacy
// shortcomings it exposes, numbered in the order 000 "D3D12 Legacy
// Resource Barrier Shortcomings" lists them (Shortcomings).
type Workload struct {
	Name         string
	Shortcomings []int
	About        string
	Frame        string
	// Even says, by profile, why the enhanced form may cost as much as
	// the legacy one there, measured: where the shortcomings cost nothing
	// on that hardware (the goal of enhanced cheaper holds elsewhere).
	Even map[string]string
	// Sample, for a frame transcribed from a public sample, says where
	// it comes from and carries the sample's own barriers (samples.go).
	Sample *Sample
}

// Shortcomings names the eleven legacy shortcomings, 1-based as workloads
// tag them (000 "D3D12 Legacy Resource Barrier Shortcomings").
var Shortcomings = [...]string{1: "excessive sync latency", 2: "excessive flush operations",
	3: "aliasing barriers are very expensive", 4: "asymmetric aliasing is even more expensive",
	5: "resource state promotion and decay", 6: "compute queues and PIXEL_SHADER_RESOURCE",
	7: "full-subresource clear, copy or discard", 8: "simultaneous access, but only across queues",
	9: "inefficient batching of subresource range transitions", 10: "synchronous copy, discard and resolve",
	11: "no self copy"}

// Workloads are the frame structures, in report order.
var Workloads = []*Workload{
	{
		Name: "deferred-gbuffer", Shortcomings: []int{2, 7},
		About: "a depth prepass, four G-buffer targets drawn against it, a lighting pass sampling them and the depth into an HDR target, then tone mapping",
		Frame: `
texture D 1920x1080 format D32_FLOAT flags DEPTH_STENCIL|SHADER_RESOURCE
texture G0 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture G1 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture G2 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture G3 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture HDR 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture OUT 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  clear-ds D 0x3f800000
  draw ds-write D
  clear-rt G0 0
  clear-rt G1 0
  clear-rt G2 0
  clear-rt G3 0
  draw rt G0 G1 G2 G3 ds D
  clear-rt HDR 0
  draw ps-srv G0 G1 G2 G3 D rt HDR
  draw ps-srv HDR rt OUT
end
execute Q L
`,
	},
	{
		Name: "shadow-cascades", Shortcomings: []int{2},
		About: "four 2048x2048 shadow cascades cleared and drawn, then sampled by the lighting pass",
		Frame: `
texture S0 2048x2048 format D32_FLOAT flags DEPTH_STENCIL|SHADER_RESOURCE
texture S1 2048x2048 format D32_FLOAT flags DEPTH_STENCIL|SHADER_RESOURCE
texture S2 2048x2048 format D32_FLOAT flags DEPTH_STENCIL|SHADER_RESOURCE
texture S3 2048x2048 format D32_FLOAT flags DEPTH_STENCIL|SHADER_RESOURCE
texture HDR 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  clear-ds S0 0x3f800000
  draw ds-write S0
  clear-ds S1 0x3f800000
  draw ds-write S1
  clear-ds S2 0x3f800000
  draw ds-write S2
  clear-ds S3 0x3f800000
  draw ds-write S3
  draw ps-srv S0 S1 S2 S3 rt HDR
end
execute Q L
`,
	},
	{
		Name: "compute-to-pixel", Shortcomings: []int{1},
		About: "screen-space ambient occlusion and light culling in compute shaders while a particle pass shades pixels, both read by the lighting pass",
		Frame: `
texture D 1920x1080 format D32_FLOAT flags DEPTH_STENCIL|SHADER_RESOURCE
texture AO 1920x1080 flags UNORDERED_ACCESS|SHADER_RESOURCE
buffer LIGHTS 4MiB flags UNORDERED_ACCESS
texture NOISE 2048x2048 flags SHADER_RESOURCE
texture PARTICLES 512x512 flags RENDER_TARGET|SHADER_RESOURCE
texture HDR 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  clear-ds D 0x3f800000
  draw ds-write D
  clear-rt PARTICLES 0
  draw ps-srv NOISE NOISE NOISE NOISE rt PARTICLES
  dispatch srv D uav AO
  dispatch srv D uav LIGHTS
  draw ps-srv AO LIGHTS PARTICLES rt HDR
end
execute Q L
`,
	},
	{
		Name: "uav-pingpong", Shortcomings: []int{1},
		About: "a chain of six compute passes over two 8 MiB buffers, each reading what the last wrote and writing what the one before read, beside a pixel pass they do not touch; then drawn from",
		Frame: `
buffer A 8MiB flags UNORDERED_ACCESS
buffer B 8MiB flags UNORDERED_ACCESS
texture NOISE 2048x2048 flags SHADER_RESOURCE
texture SKY 512x512 flags RENDER_TARGET|SHADER_RESOURCE
texture OUT 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  draw ps-srv NOISE NOISE NOISE NOISE rt SKY
  dispatch uav A
  dispatch srv A uav B
  dispatch srv B uav A
  dispatch srv A uav B
  dispatch srv B uav A
  dispatch srv A uav B
  draw ps-srv B SKY rt OUT
end
execute Q L
`,
	},
	{
		Name: "temporal-history", Shortcomings: []int{2, 5},
		About: "two frames of temporal anti-aliasing, one submission each: the scene drawn, resolved against last frame's history into this frame's, which the next frame reads",
		Frame: `
texture SCENE 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture H0 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture H1 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
buffer EXPOSURE 64KiB flags UNORDERED_ACCESS
texture OUT 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list F0 DIRECT
  clear-rt SCENE 0
  draw rt SCENE
  dispatch srv SCENE uav EXPOSURE
  draw ps-srv SCENE H1 EXPOSURE rt H0
  draw ps-srv H0 rt OUT
end
execute Q F0
list F1 DIRECT
  clear-rt SCENE 0
  draw rt SCENE
  dispatch srv SCENE uav EXPOSURE
  draw ps-srv SCENE H0 EXPOSURE rt H1
  draw ps-srv H1 rt OUT
end
execute Q F1
`,
	},
	{
		Name: "mip-chain", Shortcomings: []int{9},
		About: "a hierarchical-Z chain: each mip of a 2048x1024 11-mip texture computed from the one above, then the whole chain sampled",
		Frame: mipChain(11),
	},
	{
		Name: "gpu-driven-indirect", Shortcomings: []int{8},
		About: "GPU culling writes the next frame's indirect arguments and indices into one half of a buffer while ExecuteIndirect draws from the other half, which the last frame's culling wrote; two frames, one submission each",
		Frame: `
buffer ARGS 2MiB flags UNORDERED_ACCESS
buffer VB 8MiB
buffer CULL 64KiB
texture OUT 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list F0 DIRECT
  dispatch srv VB CULL uav ARGS[0+1048576]
  draw args ARGS[1048576+65536] ib ARGS[1114112+983040] vb VB rt OUT
end
execute Q F0
list F1 DIRECT
  dispatch srv VB CULL uav ARGS[1048576+1048576]
  draw args ARGS[0+65536] ib ARGS[65536+983040] vb VB rt OUT
end
execute Q F1
`,
	},
	{
		Name: "transient-aliasing", Shortcomings: []int{3, 4, 7},
		About: "a frame graph's transient heap: an HDR target gives its memory to a compute target and a bloom target (1:2), which give theirs to a colour-grading target (2:1), each cleared whole when it takes the memory",
		Frame: `
heap H default 32MiB
texture HDR 1920x1080 format R16G16B16A16_FLOAT flags RENDER_TARGET|SHADER_RESOURCE at H 0
texture AO 1920x1080 flags UNORDERED_ACCESS|SHADER_RESOURCE at H 0
texture BLOOM 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE at H 8388608
texture GRADE 1920x1080 format R16G16B16A16_FLOAT flags RENDER_TARGET|SHADER_RESOURCE at H 0
texture OUT 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  clear-rt HDR 0
  draw rt HDR
  draw ps-srv HDR rt OUT
  clear-uav AO 0
  dispatch uav AO
  clear-rt BLOOM 0
  draw rt BLOOM
  draw ps-srv AO BLOOM rt OUT
  clear-rt GRADE 0
  draw rt GRADE
  draw ps-srv GRADE rt OUT
end
execute Q L
`,
	},
	{
		Name: "self-copy", Shortcomings: []int{11},
		About: "in-place defragmentation: two 2 MiB blocks of a 16 MiB pool moved down within it, then the compacted range read by a compute pass",
		Frame: `
buffer POOL 16MiB flags UNORDERED_ACCESS
buffer OUTBUF 4MiB flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  copy-buffer POOL 0 POOL 8388608 2097152
  copy-buffer POOL 2097152 POOL 12582912 2097152
  dispatch srv POOL[0+4194304] uav OUTBUF
end
execute Q L
`,
	},
	{
		Name: "multi-queue", Shortcomings: []int{5, 6},
		About: "a copy queue uploads a 4 MiB mesh while async compute builds a 1024x1024 lookup texture; the direct queue waits for both fences, draws the mesh sampling the texture, then the user interface",
		Even: func() map[string]string {
			why := "the buffer needs no barrier in either form (legacy promotes it and lets it decay); the texture's hand-over " +
				"out of PIXEL_SHADER_RESOURCE, which the compute queue cannot see, waits for pixel shading that the frame's next " +
				"pixel work waits for anyway; across frames it would hold the next frame's compute work until then, which one frame does not show"
			return map[string]string{"coherent": why, "discrete": why, "unified3d": why}
		}(),
		Frame: `
buffer UPLOAD 4MiB in upload
buffer MESH 4MiB
texture LUT 1024x1024 flags UNORDERED_ACCESS|SHADER_RESOURCE
texture OUT 1920x1080 flags RENDER_TARGET
texture UI 1920x1080 flags RENDER_TARGET
queue QC COPY
queue QA COMPUTE
queue QD DIRECT
fence FC
fence FA
list LC COPY
  copy-buffer MESH 0 UPLOAD 0 4194304
end
execute QC LC
signal QC FC 1
list LA COMPUTE
  dispatch uav LUT
end
execute QA LA
signal QA FA 1
wait QD FC 1
wait QD FA 1
list LD DIRECT
  draw vb MESH ps-srv LUT rt OUT
  clear-rt UI 0
  draw rt UI
end
execute QD LD
`,
	},
	{
		Name: "streaming-copies", Shortcomings: []int{10},
		About: "four streamed 1024x1024 tiles copied into the quarters of a 2048x2048 atlas and a 4-sample scene resolved, then both sampled",
		Even: map[string]string{"coherent": "a synchronous copy's write-back to memory overlaps the draw still running, " +
			"where the asynchronous copies' bytes wait for the end of the submission's, which overlaps nothing; " +
			"with no cache to flush for the reader, nothing else differs"},
		Frame: `
texture ATLAS 2048x2048 flags SHADER_RESOURCE
texture T0 1024x1024
texture T1 1024x1024
texture T2 1024x1024
texture T3 1024x1024
texture MS 1920x1080 samples 4 flags RENDER_TARGET
texture SCENE 1920x1080 flags RENDER_TARGET|SHADER_RESOURCE
texture OUT 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  draw rt MS
  copy-texture ATLAS@0 0 0 0 T0@0
  copy-texture ATLAS@0 1024 0 0 T1@0
  copy-texture ATLAS@0 0 1024 0 T2@0
  copy-texture ATLAS@0 1024 1024 0 T3@0
  resolve SCENE@0 MS@0
  draw ps-srv ATLAS SCENE rt OUT
end
execute Q L
`,
	},
}

// mipChain is the hierarchical-Z frame: mip 0 copied in from the depth's
// colour copy, mip N+1 computed from mip N, then every mip sampled.
func mipChain(mips int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `
texture SRC 2048x1024 flags RENDER_TARGET|SHADER_RESOURCE
texture HZ 2048x1024 mips %d flags UNORDERED_ACCESS|SHADER_RESOURCE
texture OUT 1920x1080 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  clear-rt SRC 0x3f800000
  dispatch srv SRC uav HZ@0
`, mips)
	for m := 1; m < mips; m++ {
		fmt.Fprintf(&b, "  dispatch srv HZ@%d uav HZ@%d\n", m-1, m)
	}
	b.WriteString("  draw ps-srv HZ rt OUT\nend\nexecute Q L\n")
	return b.String()
}

// Lookup returns a workload by name (a frame structure or a sample).
func Lookup(name string) (*Workload, error) {
	var names []string
	for _, w := range All() {
		if w.Name == name {
			return w, nil
		}
		names = append(names, w.Name)
	}
	return nil, fmt.Errorf("no workload %.64q (the workloads: %s)", name, strings.Join(names, ", "))
}
