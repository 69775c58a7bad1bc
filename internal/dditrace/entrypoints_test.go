package dditrace

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An inlined copy of an entry point would run without probes: every entry
// point must be //go:noinline in package umd.
func TestEntryPointsAreNotInlined(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("../../umd/*.go")
	require.NoError(t, err)
	noinline := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Doc == nil {
				continue
			}
			recv := fn.Recv.List[0].Type
			star, ok := recv.(*ast.StarExpr)
			if !ok {
				continue
			}
			sym := umdPkg + "(*" + star.X.(*ast.Ident).Name + ")." + fn.Name.Name
			for _, c := range fn.Doc.List {
				if c.Text == "//go:noinline" {
					noinline[sym] = true
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, ep := range EntryPoints {
		assert.True(t, noinline[ep.Symbol], "%s (%s) is not //go:noinline", ep.Symbol, ep.Name)
		assert.False(t, seen[ep.Symbol], "%s listed twice", ep.Symbol)
		seen[ep.Symbol] = true
	}
	assert.Less(t, len(EntryPoints), 1<<cookieCaptureShift, "an entry point's index must fit below the cookie's capture bits")
}
