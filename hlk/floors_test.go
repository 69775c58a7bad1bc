package hlk

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHlkImportsNoDriver: the harness judges any driver, so it imports
// none: not package umd, directly or through another package (its tests
// may, to judge ebref's own).
func TestHlkImportsNoDriver(t *testing.T) {
	const module = "github.com/ebref/ebref/"
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	seen := map[string][]string{} // package -> the import path that reached it
	var walk func(path string, via []string)
	walk = func(path string, via []string) {
		if _, ok := seen[path]; ok || !strings.HasPrefix(path, module) {
			return
		}
		seen[path] = via
		p, err := build.Import(path, root, 0)
		require.NoError(t, err, path)
		for _, imp := range p.Imports {
			walk(imp, append(append([]string(nil), via...), imp))
		}
	}
	walk(module+"hlk", nil)
	via, found := seen[module+"umd"]
	assert.False(t, found, "hlk reaches package umd through %v", via)
	assert.Contains(t, seen, module+"hlk/driver", "the walk follows hlk's imports")
}
