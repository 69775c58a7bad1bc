package translator_test

import (
	"fmt"
	"os"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// conservative is a translator that spends packets instead of thought:
// every call waits for all earlier work, writes back and drops every
// cache whole, and does the compression work each texture's layouts
// need, read from the request's facts. It is safe on every profile and
// costs more than the reference (docs/translators.md walks through it).
type conservative struct {
	all cmdbuf.CacheMask // every cache the profile has
}

func openConservative(p *hwmodel.Profile) (translator.Translator, error) {
	var c conservative
	for _, s := range p.Caches {
		c.all |= s.Kind.Mask()
	}
	return c, nil
}

func (c conservative) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	everything := func() {
		dst = cmdbuf.AppendWait(dst, cmdbuf.Wait{Drain: cmdbuf.AllStages, Hold: cmdbuf.AllStages})
		dst = cmdbuf.AppendCache(dst, cmdbuf.CacheOp{Flush: c.all, Invalidate: c.all}, false)
	}
	everything()
	for i := range req.Facts {
		f := &req.Facts[i]
		var b *ddi.TextureBarrier
		if req.Entry == translator.Entry0094 && req.Barrier(i).Type == ddi.BarrierTypeTexture {
			b = req.Barrier(i).Texture()
		} else if req.Entry == translator.Entry0088 && req.Barrier0088(i).Type == ddi.BarrierTypeTexture {
			b = req.Barrier0088(i).Texture()
		}
		if b != nil && f.EndEvent != 0 && b.SyncBefore == ddi.SyncSplit {
			dst = cmdbuf.AppendEventWait(dst, cmdbuf.Event{ID: f.EndEvent, Stages: cmdbuf.AllStages})
		}
		if b == nil || f.Surface == 0 || b.SyncBefore == ddi.SyncSplit || b.LayoutAfter == ddi.LayoutUndefined || b.LayoutBefore == b.LayoutAfter {
			continue // the begin of a split did its work; UNDEFINED after needs none
		}
		cb, ca := f.Flags&translator.CompressedBefore != 0, f.Flags&translator.CompressedAfter != 0
		for _, r := range req.Regions[f.FirstRegion : f.FirstRegion+f.NumRegions] {
			region := cmdbuf.SurfaceRegion{Surface: uint16(f.Surface), Offset: r.Offset, Size: r.Size}
			switch {
			case b.LayoutBefore == ddi.LayoutUndefined && !ca: // whatever the metadata says, the bytes are plain now
				region.Plain, region.Discard = true, true
				dst = cmdbuf.AppendMetadataInit(dst, region, false)
			case b.LayoutBefore == ddi.LayoutUndefined && b.Flags&ddi.TextureBarrierFlagDiscard != 0:
				dst = cmdbuf.AppendMetadataInit(dst, region, false) // cleared
			case b.LayoutBefore == ddi.LayoutUndefined:
			case cb && !ca:
				dst = cmdbuf.AppendDecompress(dst, region, false)
			case !cb && ca:
				region.Plain = true
				dst = cmdbuf.AppendMetadataInit(dst, region, false)
			}
		}
	}
	everything()
	if req.SplitEvent != 0 {
		dst = cmdbuf.AppendEventSignal(dst, cmdbuf.Event{ID: req.SplitEvent, Stages: cmdbuf.AllStages})
	}
	return dst, nil
}

// A translator in Go: the conservative one above, translating a call of
// one global barrier on the discrete profile. Served with
// translator.Serve(os.Stdin, os.Stdout, "conservative", openConservative)
// from a main package, it is a translator `ebref hlk --translator` runs.
func Example() {
	p, _ := hwmodel.LookupProfile("discrete")
	t, _ := openConservative(p)
	req := globalRequest() // compute writes, then pixel-shader reads
	words, err := t.Translate(req, nil)
	if err == nil {
		err = translator.Check(req, words) // what ebref checks of every reply
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	cmdbuf.WriteListing(os.Stdout, cmdbuf.Listing(cmdbuf.FromWords(words), nil))
	// Output:
	// 0  WAIT drain=ALL hold=ALL
	//      3  CACHE flush=ALL inval=ALL
	//     10  WAIT drain=ALL hold=ALL
	//     13  CACHE flush=ALL inval=ALL
}
