package umd_test

import (
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd"
)

// A render target drawn, then sampled by the pixel stage: the Barrier call
// becomes a WAIT, a CACHE operation over the texture's bytes, and on this
// profile no decompression (direct-queue shaders decode the render
// target's compression).
func ExampleCommandList_Barrier() {
	p, _ := hwmodel.LookupProfile("discrete")
	d, _ := umd.Open(p, umd.Options{})
	rtFlags := ddi.ResourceFlagRenderTarget | ddi.ResourceFlagShaderResource
	rt, _ := d.CreateCommitted(umd.Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags, ddi.LayoutRenderTarget), resource.HeapDefault)
	cl, _ := d.CreateCommandList(ddi.CommandListTypeDirect)
	cl.Draw(umd.Draw{RenderTargets: []umd.View{umd.WholeTexture(rt)}})
	cl.Barrier([]ddi.Barrier{ddi.NewTextureBarrier(ddi.TextureBarrier{
		SyncBefore: ddi.SyncRenderTarget, SyncAfter: ddi.SyncPixelShading,
		AccessBefore: ddi.AccessRenderTarget, AccessAfter: ddi.AccessShaderResource,
		LayoutBefore: ddi.LayoutRenderTarget, LayoutAfter: ddi.LayoutDirectQueueShaderResource,
		Resource: rt, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources},
	})})
	if err := cl.Close(); err != nil {
		fmt.Println(err)
		return
	}
	// The call's record says where its dwords are: its MARKER, then its
	// packets.
	rec := cl.Records()[0]
	for _, l := range cmdbuf.Listing(cl.Buffer(), nil) {
		if l.Offset >= rec.Start && l.Offset < rec.End {
			fmt.Println(l.Op, l.Text)
		}
	}
	// Output:
	// MARKER tag=0x00000002 "Barrier #2"
	// WAIT drain=COLOR hold=CP
	// CACHE flush=COLOR inval=TEXTURE_L0 range=0x100000000+0x4000
}
