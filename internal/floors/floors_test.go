package floors

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/ebref/ebref/"

// floor is each package's level. A package imports only packages on lower
// floors: the hardware (hwmodel) and the packet format (cmdbuf) at the
// bottom with the DDI's data (ddi); the runtime's legacy translation
// (ddi/legacy) beside the driver, never inside it; the driver (umd) the
// only room where the DDI and the hardware meet; the harness (hlk) on the
// driver's floor without importing it; bench and the tools on top. A new
// package fails this test until it is given its floor here.
var floor = map[string]int{
	// Helpers that know nothing of barriers, below everything.
	"internal/docgen":    -1,
	"internal/ortable":   -1,
	"internal/printable": -1,
	"internal/floors":    -1,
	"internal/memtest":   -1,

	"cmdbuf": 0,
	"ddi":    0,

	"ddi/debug":                       1,
	"ddi/internal/cabi":               1,
	"resource":                        1,
	"hwmodel":                         1,
	"internal/dditrace":               1,
	"umd/translator/internal/cheader": 1,

	"ddi/legacy":            2,
	"caps":                  2,
	"umd/translator":        2,
	"bench/internal/oracle": 2,
	"bench/internal/chart":  2,

	// The interfaces the harness judges a driver through, as
	// database/sql/driver is for SQL drivers: a driver imports them.
	"hlk/driver": 3,

	"umd": 4,
	"hlk": 4, // beside the driver: it judges any driver, so imports none

	"hlk/reference": 5, // ebref's own driver, as the harness drives it

	"bench": 6,

	"tools/ebref":  7,
	"tools/mutate": 7,
}

// never are imports no floor may make, whatever the levels say.
var never = map[string][]string{
	// The hardware knows no D3D12.
	"hwmodel": {"ddi", "ddi/debug", "resource"},
	"cmdbuf":  {"ddi", "ddi/debug", "resource"},
	// The runtime's translation sits beside the driver.
	"umd": {"ddi/legacy"},
}

// TestFloors: every package of the module has a floor, and its non-test
// imports of the module go only down.
func TestFloors(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	var pkgs []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if rel = filepath.ToSlash(rel); !slices.Contains(pkgs, rel) {
				pkgs = append(pkgs, rel)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, pkgs, "umd", "the walk finds the packages")
	for _, rel := range pkgs {
		if strings.HasPrefix(rel, "examples/") {
			continue // programs for readers, on top of everything
		}
		mine, ok := floor[rel]
		if !assert.True(t, ok, "package %s has no floor: give it one in floors_test.go", rel) {
			continue
		}
		p, err := build.ImportDir(filepath.Join(root, rel), 0)
		if _, none := err.(*build.NoGoError); none {
			continue
		}
		require.NoError(t, err, rel)
		for _, imp := range p.Imports {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			theirs, known := floor[dep]
			assert.True(t, known, "%s imports %s, which has no floor", rel, dep)
			assert.Less(t, theirs, mine, "%s (floor %d) imports %s (floor %d): an arrow up or sideways", rel, mine, dep, theirs)
			assert.NotContains(t, never[rel], dep, "%s must never import %s", rel, dep)
		}
	}
	// The table names no package that is gone.
	for rel := range floor {
		_, err := os.Stat(filepath.Join(root, rel))
		assert.NoError(t, err, "the floors table names %s, which is not there", rel)
	}
}
