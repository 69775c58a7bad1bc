package dditrace

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/ebref/ebref/internal/docgen"
	"github.com/stretchr/testify/require"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated sections of docs/trace.md")

// The table of traced entry points in docs/trace.md is EntryPoints.
func TestDocs(t *testing.T) {
	var b strings.Builder
	b.WriteString("| DDI | Go function (package umd) | barrier array copied |\n|---|---|---|\n")
	for _, ep := range EntryPoints {
		capture := "-"
		if ep.Capture != CaptureNone {
			capture = fmt.Sprintf("`D3D12DDIARG_BARRIER_%s`, %d bytes a record, up to %d records a call",
				ep.Capture.Version(), ep.Capture.Stride(), maxCaptured(ep.Capture))
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", ep.Name, strings.TrimPrefix(ep.Symbol, umdPkg), capture)
	}
	require.NoError(t, docgen.Check("../../docs/trace.md", "go test ./internal/dditrace -update",
		[]docgen.Section{{Name: "entry-points", Body: b.String()}}, *updateDocs))
}
