package umd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/internal/docgen"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/require"
)

const translationDoc = "../docs/translation.md"

// syncTable is the sync → stages table (hardware.go).
func syncTable() string {
	var b strings.Builder
	b.WriteString("| sync scope | hardware stages drained / held | spec |\n|---|---|---|\n")
	for _, r := range syncStages {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.sync, r.stages, r.cite)
	}
	var ums []string
	for _, u := range ddi.UmbrellaSyncs {
		ums = append(ums, fmt.Sprintf("`%s` = %s", u.Umbrella, u.Covers))
	}
	fmt.Fprintf(&b, "\nUmbrellas are expanded first: %s.\n", strings.Join(ums, "; "))
	return b.String()
}

// accessTable is the access → clients table (hardware.go).
func accessTable() string {
	var b strings.Builder
	b.WriteString("| access | clients | a write? |\n|---|---|---|\n")
	for _, r := range accessClients {
		var cs []string
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			if r.clients.has(c) {
				cs = append(cs, c.String())
			}
		}
		write := ""
		if r.access&ddi.WriteAccesses != 0 {
			write = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.access, strings.Join(cs, ", "), write)
	}
	return b.String()
}

// compressionTable lists, per profile and kind of texture, the layouts
// that keep it compressed (compression.go).
func compressionTable(t *testing.T) string {
	kinds := []struct {
		name  string
		flags ddi.ResourceFlags
		f     ddi.Format
	}{
		{"render target", rtFlags, ddi.FormatR8G8B8A8Unorm},
		{"depth-stencil", ddi.ResourceFlagDepthStencil | ddi.ResourceFlagShaderResource, ddi.FormatD32Float},
		{"unordered access", uavFlags, ddi.FormatR8G8B8A8Unorm},
	}
	var b strings.Builder
	b.WriteString("| profile | render target | depth-stencil | unordered access |\n|---|---|---|---|\n")
	for _, p := range hwmodel.ProfileNames() {
		prof, err := hwmodel.LookupProfile(p)
		require.NoError(t, err)
		fmt.Fprintf(&b, "| `%s` |", p)
		for _, k := range kinds {
			r, err := resource.New(resource.DescFromCreateResource(ptr(Texture2DDesc(k.f, 64, 64, 1, 1, k.flags, ddi.LayoutCommon))))
			require.NoError(t, err)
			if !compressible(prof, r) {
				b.WriteString(" never compressed |")
				continue
			}
			states := compressedLayouts(prof, r, resource.HeapDefault)
			var ls []string
			for _, l := range ddi.AllBarrierLayouts() {
				if slot, ok := layoutSlot(l); ok && states[slot] && r.CheckLayout("", l) == nil {
					ls = append(ls, "`"+l.String()+"`")
				}
			}
			fmt.Fprintf(&b, " %s |", strings.Join(ls, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func ptr[T any](v T) *T { return &v }

// exampleListings is the golden cases named, as each profile translates
// them.
func exampleListings(t *testing.T, names ...string) string {
	var b strings.Builder
	for _, name := range names {
		var c *goldenCase
		for i := range goldenCases {
			if goldenCases[i].name == name {
				c = &goldenCases[i]
			}
		}
		require.NotNil(t, c, name)
		for _, p := range hwmodel.ProfileNames() {
			e := newEnv(t, p, Options{})
			cl := e.list(c.list)
			calls := c.record(e, cl)
			fmt.Fprintf(&b, "`%s` on `%s`:\n\n```\n", c.name, p)
			for _, call := range calls {
				for _, x := range call.barriers {
					fmt.Fprintf(&b, "# %s\n", x.String())
				}
			}
			for _, l := range cmdbuf.Listing(cl.Buffer(), nil) {
				fmt.Fprintf(&b, "%-13s %s\n", l.Op, l.Text)
			}
			b.WriteString("```\n\n")
		}
	}
	return b.String()
}

// TestTranslationDocIsCurrent: the generated parts of docs/translation.md
// are the driver's tables and output (go test ./umd -run
// TestTranslationDocIsCurrent -update rewrites them).
func TestTranslationDocIsCurrent(t *testing.T) {
	sections := []docgen.Section{
		{Name: "syncs", Body: syncTable()},
		{Name: "accesses", Body: accessTable()},
		{Name: "compression", Body: compressionTable(t)},
		{Name: "example-rt", Body: exampleListings(t, "render-target-to-pixel-shader-resource", "render-target-to-common")},
		{Name: "example-discard", Body: exampleListings(t, "aliasing-activation-with-discard")},
		{Name: "example-split", Body: exampleListings(t, "split")},
		{Name: "example-ranged", Body: exampleListings(t, "atomic-copy")},
	}
	require.NoError(t, docgen.Check(translationDoc, "go test ./umd -update", sections, *update))
}
