package hlk

import (
	"context"
	"testing"

	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A report of a run on a file's profile records the file's digest, and a
// merge rebuilds its plan only with that file given: without it, or with
// another file of the same name, it refuses, saying which.
func TestMergeNeedsTheProfileFiles(t *testing.T) {
	p, digest, err := hwmodel.ReadProfileFile("../hwmodel/testdata/profiles/strange/no-caches.json")
	require.NoError(t, err)
	_, err = hwmodel.AddProfile(p, digest)
	require.NoError(t, err)
	shards := func() []*Report {
		var out []*Report
		for k := 1; k <= 2; k++ {
			rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: defaultSuites(t), Only: []string{"hlk"},
				Profiles: []string{"no-caches"}, Shards: 2, Shard: k})
			require.NoError(t, err)
			require.True(t, rep.Conformant())
			assert.Equal(t, map[string]string{"no-caches": digest}, rep.Environment.ProfileFiles)
			out = append(out, rep)
		}
		return out
	}
	_, err = Merge(shards()...)
	require.NoError(t, err, "the file is known: the plan rebuilds")

	reps := shards()
	for _, r := range reps {
		r.Environment.ProfileFiles = map[string]string{"no-caches": "sha256:other"}
	}
	_, err = Merge(reps...)
	assert.EqualError(t, err, "hlk: the reports ran profile no-caches from a file of digest sha256:other; the file given is "+digest+": not the profile they ran")

	reps = shards()
	for _, r := range reps {
		r.Environment.Profiles = []string{"ghost"}
		r.Environment.ProfileFiles = map[string]string{"ghost": "sha256:ghost"}
	}
	_, err = Merge(reps...)
	assert.EqualError(t, err, "hlk: the reports ran profile ghost from a file (sha256:ghost): give merge the same file (--profile-file)")

	reps = shards()
	reps[1].Environment.ProfileFiles = nil
	_, err = Merge(reps...)
	assert.ErrorContains(t, err, "report 1 is of profile files")
}
