package caps_test

import (
	"fmt"

	"github.com/ebref/ebref/caps"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// What the driver reports on a profile: EnhancedBarriersSupported with
// the reason, and the layouts a Barrier on a copy list may name.
func ExampleNewReport() {
	p, err := hwmodel.LookupProfile("discrete")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := caps.NewReport(p)
	for _, m := range r.Options {
		if m.Name == "EnhancedBarriersSupported" || m.Name == "ResourceHeapTier" {
			fmt.Printf("%s = %s: %s\n", m.Name, m.Value, m.Why)
		}
	}
	for _, q := range r.Queues {
		if q.Type == ddi.CommandListTypeCopy {
			fmt.Println(q.Type, "lists may name", q.Layouts)
		}
	}
	_, ok := caps.QueueLayouts(ddi.CommandListTypeBundle)
	fmt.Println("bundles take barriers:", ok)
	// Output:
	// ResourceHeapTier = TIER_2: buffers, render-target/depth-stencil textures and other textures share heaps (resource/)
	// EnhancedBarriersSupported = TRUE: the point of ebref: the Barrier, CreateHeapAndResource, CalcPrivateHeapAndResourceSizes and CheckResourceAllocationInfo DDIs are implemented
	// COPY lists may name [UNDEFINED COMMON]
	// bundles take barriers: false
}
