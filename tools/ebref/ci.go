package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ebref/ebref/hlk"
)

// What CI needs of a run (issue 35): lists of cases and baselines read
// from files, the shard from the CI system's environment, and progress
// a log shows.

// maxListFile bounds caselist, baseline and flakes files.
const maxListFile = hlk.MaxListBytes

// readList reads a caselist, baseline or flakes file (bounded, regular).
func readList(e *env, path, kind string) (io.Reader, error) {
	data, err := readInput(e.stdin, path, kind, maxListFile)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(data), nil
}

// shardEnv is one CI system's way of saying which shard a job is.
type shardEnv struct {
	system       string
	index, total string // the variables
	zeroBased    bool
}

// shardEnvs are the CI systems whose shard ebref reads when --shard is
// not given (docs/conformance.md "Sharding in CI").
var shardEnvs = []shardEnv{
	{"Bazel", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", true},
	{"GitLab CI", "CI_NODE_INDEX", "CI_NODE_TOTAL", false},
	{"a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "EBREF_SHARD_COUNT", true},
}

// shardFromEnv reads the shard a CI system sets, 0, 0 when none does.
// count is --shard-count (a Kubernetes Indexed Job names its index but
// not the count; EBREF_SHARD_COUNT may too). It says on the returned line
// which variables it used.
func shardFromEnv(getenv func(string) string, count int) (k, n int, said string, err error) {
	var found []string
	for _, s := range shardEnvs {
		idx, tot := getenv(s.index), getenv(s.total)
		if s.total == "EBREF_SHARD_COUNT" && count > 0 {
			if tot != "" && tot != strconv.Itoa(count) {
				return 0, 0, "", fmt.Errorf("--shard-count %d and EBREF_SHARD_COUNT=%s disagree", count, tot)
			}
			tot = strconv.Itoa(count)
		}
		if idx == "" && tot == "" || s.system == "GitLab CI" && idx == "" && tot == "1" {
			continue // GitLab sets CI_NODE_TOTAL=1 for a job without parallel
		}
		if s.system == "a Kubernetes Indexed Job" && idx == "" {
			continue // a count alone is not a shard
		}
		if idx == "" || tot == "" {
			missing := s.index
			if tot == "" {
				missing = s.total
				if s.total == "EBREF_SHARD_COUNT" {
					missing = "--shard-count or EBREF_SHARD_COUNT"
				}
			}
			return 0, 0, "", fmt.Errorf("%s=%q, %s=%q: %s sets both; %s is missing", s.index, idx, s.total, tot, s.system, missing)
		}
		i, err1 := strconv.Atoi(idx)
		t, err2 := strconv.Atoi(tot)
		if s.zeroBased {
			i++
		}
		if err1 != nil || err2 != nil || t < 1 || i < 1 || i > t {
			base := "1-based"
			if s.zeroBased {
				base = "0-based"
			}
			return 0, 0, "", fmt.Errorf("%s=%s, %s=%s: not a shard of %s (the index is %s, below the total)", s.index, idx, s.total, tot, s.system, base)
		}
		found = append(found, fmt.Sprintf("%s (%s=%s, %s=%s)", s.system, s.index, idx, s.total, tot))
		k, n = i, t
	}
	switch len(found) {
	case 0:
		return 0, 0, "", nil
	case 1:
		return k, n, fmt.Sprintf("shard %d/%d from %s", k, n, found[0]), nil
	}
	return 0, 0, "", fmt.Errorf("the environment names shards of two CI systems: %s; give --shard K/N", strings.Join(found, " and "))
}

// touchShardStatus tells Bazel the test knows sharding: it creates (or
// updates) the file TEST_SHARD_STATUS_FILE names.
func touchShardStatus(getenv func(string) string) error {
	p := getenv("TEST_SHARD_STATUS_FILE")
	if p == "" {
		return nil
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("TEST_SHARD_STATUS_FILE: %w", err)
	}
	now := time.Now()
	os.Chtimes(p, now, now)
	return f.Close()
}

// progress reports a long command's progress on stderr: a live line on a
// terminal, else a line every interval (so a CI log shows the run moving),
// nothing when quiet.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	name     string
	live     bool
	quiet    bool
	interval time.Duration
	start    time.Time
	last     time.Time
}

func newProgress(e *env, name string, quiet bool) *progress {
	return &progress{w: e.stderr, name: name, live: isTerminal(e.stderr), quiet: quiet, interval: 5 * time.Second, start: time.Now()}
}

// step reports done of total, bad of them failed, and what just ran.
func (p *progress) step(done, total, bad int, what string) {
	if p == nil || p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	elapsed := now.Sub(p.start)
	left := ""
	if done > 0 && done < total {
		left = fmt.Sprintf(", about %s left", (elapsed * time.Duration(total-done) / time.Duration(done)).Round(time.Second))
	}
	line := fmt.Sprintf("%d/%d, %d failed, %s%s", done, total, bad, elapsed.Round(100*time.Millisecond), left)
	switch {
	case p.live:
		fmt.Fprintf(p.w, "\r\033[K[%s] %s", line, trim(what, 60))
		if done == total {
			fmt.Fprint(p.w, "\r\033[K")
		}
	case done == total || now.Sub(p.last) >= p.interval:
		p.last = now
		fmt.Fprintf(p.w, "ebref %s: %s\n", p.name, line)
	}
}
