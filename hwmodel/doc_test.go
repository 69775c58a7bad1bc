package hwmodel

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/internal/docgen"
	"github.com/stretchr/testify/require"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated tables in docs/hardware.md")

const hardwareDoc = "../docs/hardware.md"

// profileTables renders the profiles as the markdown docs/hardware.md
// carries between its profile-table markers.
func profileTables() string {
	var b strings.Builder
	b.WriteString("| profile | caches (→ parent) | compressed textures | costs that differ |\n|---|---|---|---|\n")
	for _, p := range Profiles() {
		var cs []string
		for _, s := range p.Caches {
			parent := "memory"
			if s.Parent != Memory {
				parent = s.Parent.String()
			}
			kind := "per engine"
			if s.Shared {
				kind = "shared"
			}
			ro := ""
			if s.ReadOnly {
				ro = ", read-only"
			}
			cs = append(cs, fmt.Sprintf("%s (→ %s, %s%s)", s.Kind, parent, kind, ro))
		}
		var comp []string
		if p.Compresses.RenderTarget {
			comp = append(comp, "render target")
		}
		if p.Compresses.DepthStencil {
			comp = append(comp, "depth-stencil")
		}
		if p.Compresses.UnorderedAccess {
			comp = append(comp, "unordered access")
		}
		if comp == nil {
			comp = []string{"none"}
		}
		var costs []string
		labels := []string{"packet %d", "wait %d", "cache op %d", "flush %d/line", "invalidate %d/line", "decompress %d/KiB", "metadata %d/byte", "end of submission %d"}
		def := defaultCosts
		for i, f := range p.Costs.fields() {
			if d := def.fields()[i]; *f != *d {
				costs = append(costs, fmt.Sprintf(labels[i], *f))
			}
		}
		if costs == nil {
			costs = []string{"—"}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", p.Name, strings.Join(cs, "; "), strings.Join(comp, ", "), strings.Join(costs, ", "))
	}
	for _, p := range Profiles() {
		fmt.Fprintf(&b, "\n**`%s`** — %s. Each cell is the client's path to memory on that engine; `(c)` marks a client that decodes compression there.\n\n", p.Name, strings.TrimSuffix(p.Description, "."))
		if len(p.Sources) > 0 {
			b.WriteString("Sources:\n\n")
			for _, s := range p.Sources {
				fmt.Fprintf(&b, "- %s\n", s)
			}
			b.WriteString("\n")
		}
		b.WriteString("| client |")
		for e := EngineKind(0); e < NumEngineKinds; e++ {
			fmt.Fprintf(&b, " %s |", e)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", int(NumEngineKinds)) + "\n")
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			fmt.Fprintf(&b, "| %s |", c)
			for e := EngineKind(0); e < NumEngineKinds; e++ {
				var hops []string
				for _, k := range p.Path(e, c) {
					hops = append(hops, k.String())
				}
				cell := strings.Join(append(hops, "memory"), " → ")
				if p.Aware[e][c] {
					cell += " (c)"
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func costTable() string {
	c := defaultCosts
	// No vendor publishes per-packet cycle costs of its command processor or
	// caches, so every figure is illustrative; basis says what ratio it
	// is chosen to keep, which is what a comparison of translations rests on.
	rows := []struct {
		what  string
		v     uint64
		basis string
	}{
		{"every packet, parsed on the command processor", c.Packet,
			"illustrative: the unit; a front end takes about a packet a clock"},
		{"WAIT, EVENT_WAIT, FENCE_WAIT, on top of parsing and the idle cycles they cause", c.WaitBase,
			"illustrative: a drain's handshake with the stages, small beside any real idle"},
		{"CACHE, on top of parsing and per-line costs", c.CacheOpBase,
			"illustrative: a round trip to the cache controller, three waits' worth, so merging cache operations pays"},
		{"per dirty 64-byte line written back by a flush", c.FlushPerLine,
			"illustrative: 64 bytes at 8 bytes a clock to the parent"},
		{"per line dropped by an invalidate", c.InvalPerLine,
			"illustrative: a tag update, an eighth of a write-back"},
		{"per KiB of surface decompressed (read and written back plain)", c.DecompressPerKB,
			"illustrative: 2 KiB moved at 32 bytes a clock"},
		{"per byte of metadata initialised (2 bytes per 256-byte block)", c.MetadataPerByte,
			"illustrative: a fill at one byte a clock, far cheaper than decompressing"},
		{"end of submission, on top of its drain and its flushes and invalidates at the per-line costs", c.BatchEndBase,
			"illustrative: a submission's completion handshake with the CPU, eight waits' worth"},
	}
	var b strings.Builder
	b.WriteString("| cost (default; profiles may differ, see above) | cycles | basis |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %s |\n", r.what, r.v, r.basis)
	}
	return b.String()
}

// TestHardwareDocIsCurrent: the tables in docs/hardware.md are the
// profiles' and the cost model's data (go test ./hwmodel -update rewrites
// them).
func TestHardwareDocIsCurrent(t *testing.T) {
	require.NoError(t, docgen.Check(hardwareDoc, "go test ./hwmodel -update",
		[]docgen.Section{{Name: "profiles", Body: profileTables()}, {Name: "costs", Body: costTable()}}, *updateDocs))
}
