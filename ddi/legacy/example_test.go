package legacy_test

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/legacy"
)

// A legacy transition of a render target to a pixel-shader resource, as the
// runtime hands it to the Barrier DDI.
func ExampleTranslate() {
	b := legacy.Transition(2, legacy.AllSubresources, ddi.StateRenderTarget, ddi.StatePixelShaderResource)
	e, err := legacy.Translate(b, legacy.Resource{Texture: true}, ddi.CommandListTypeDirect)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.String())
	// Output:
	// TEXTURE 0x2 RENDER_TARGET->PIXEL_SHADING RENDER_TARGET->SHADER_RESOURCE layout RENDER_TARGET->LEGACY_PIXEL_SHADER_RESOURCE all
}

// The runtime's tracker: a buffer promoted by a copy, then transitioned in
// the next list of the same submission, decays to COMMON afterwards.
func ExampleTracker() {
	tr := legacy.NewTracker()
	const buf = ddi.HResource(1)
	tr.Create(buf, legacy.Resource{}, 1, ddi.StateCommon)
	a := tr.NewList(ddi.CommandListTypeDirect)
	a.Use("CopyBufferRegion", buf, 0, ddi.StateCopyDest) // promotion: no barrier
	b := tr.NewList(ddi.CommandListTypeDirect)
	out, msgs := b.ResourceBarrier([]legacy.Barrier{legacy.Transition(buf, 0, ddi.StateCopyDest, ddi.StateVertexAndConstantBuffer)})
	fmt.Println(len(out), len(msgs))
	fmt.Println(len(tr.Execute(ddi.CommandListTypeDirect, a, b)))
	s, _ := tr.State(buf, 0)
	fmt.Println(s)
	// Output:
	// 1 0
	// 0
	// COMMON
}
