package translator_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// The test binary is also the translators these tests start: with
// EBREF_TEST_TRANSLATOR set it behaves as that kind of translator.
func TestMain(m *testing.M) {
	if mode := os.Getenv("EBREF_TEST_TRANSLATOR"); mode != "" {
		os.Exit(fakeTranslator(mode))
	}
	os.Exit(m.Run())
}

func fakeTranslator(mode string) int {
	open := umd.ReferenceOpener{}.Open
	switch mode {
	case "exit0":
		return 0
	case "never-compressed":
		open = func(p *hwmodel.Profile) (translator.Translator, error) {
			return withPolicy{umd.NewReference(p), translator.Policy{}}, nil
		}
	case "garbage":
		fmt.Println("hello from the translator's debug print")
		return 0
	case "crash-every-200":
		calls := 0
		open = func(p *hwmodel.Profile) (translator.Translator, error) {
			ref := umd.NewReference(p)
			return translatorFunc(func(r *translator.Request, dst []uint32) ([]uint32, error) {
				if calls++; calls == 200 {
					fmt.Fprintln(os.Stderr, "the two hundredth call")
					os.Exit(4)
				}
				return ref.Translate(r, dst)
			}), nil
		}
	case "crash-on-3":
		calls := 0
		open = func(p *hwmodel.Profile) (translator.Translator, error) {
			ref := umd.NewReference(p)
			return translatorFunc(func(r *translator.Request, dst []uint32) ([]uint32, error) {
				if calls++; calls == 3 {
					fmt.Fprintf(os.Stderr, "the third call, number %d\n", r.Call)
					os.Exit(5)
				}
				return ref.Translate(r, dst)
			}), nil
		}
	case "crash-on-profile":
		open = func(p *hwmodel.Profile) (translator.Translator, error) {
			fmt.Fprintf(os.Stderr, "cannot open %s\n", p.Name)
			os.Exit(6)
			return nil, nil
		}
	case "hang-on-2":
		calls := 0
		open = func(p *hwmodel.Profile) (translator.Translator, error) {
			ref := umd.NewReference(p)
			return translatorFunc(func(r *translator.Request, dst []uint32) ([]uint32, error) {
				if calls++; calls == 2 {
					time.Sleep(time.Hour)
				}
				return ref.Translate(r, dst)
			}), nil
		}
	case "crash":
		open = func(*hwmodel.Profile) (translator.Translator, error) {
			return translatorFunc(func(*translator.Request, []uint32) ([]uint32, error) {
				fmt.Fprintln(os.Stderr, "assertion failed: the thousandth call")
				os.Exit(3)
				return nil, nil
			}), nil
		}
	case "hang":
		open = func(*hwmodel.Profile) (translator.Translator, error) {
			return translatorFunc(func(*translator.Request, []uint32) ([]uint32, error) {
				time.Sleep(time.Hour)
				return nil, nil
			}), nil
		}
	case "bad-surface":
		open = func(*hwmodel.Profile) (translator.Translator, error) {
			return translatorFunc(func(_ *translator.Request, dst []uint32) ([]uint32, error) {
				return cmdbuf.AppendDecompress(dst, cmdbuf.SurfaceRegion{Surface: 99, Size: 256}, false), nil
			}), nil
		}
	case "empty":
		open = func(*hwmodel.Profile) (translator.Translator, error) {
			return translatorFunc(func(_ *translator.Request, dst []uint32) ([]uint32, error) { return dst, nil }), nil
		}
	case "echo":
		// Each reply is the call's number and its profile's: which request
		// a reply answers. A profile sent twice to one copy is an error:
		// ebref sends each once.
		sent := map[string]bool{}
		open = func(p *hwmodel.Profile) (translator.Translator, error) {
			if sent[p.Name] {
				return nil, fmt.Errorf("profile %s sent twice", p.Name)
			}
			sent[p.Name] = true
			return translatorFunc(func(r *translator.Request, dst []uint32) ([]uint32, error) {
				return append(dst, r.Call, r.Profile), nil
			}), nil
		}
	case "work":
		open = func(*hwmodel.Profile) (translator.Translator, error) {
			return translatorFunc(func(_ *translator.Request, dst []uint32) ([]uint32, error) {
				return cmdbuf.AppendFenceSignal(dst, cmdbuf.Fence{ID: 1, Value: 1}), nil
			}), nil
		}
	case "version1":
		// A translator of the first version: its hello says 1.
		in := bufio.NewReader(os.Stdin)
		hello := make([]byte, translator.HelloSize)
		in.Read(hello)
		w := bufio.NewWriter(os.Stdout)
		for _, v := range []uint32{translator.Magic, 1, 4, 0, 0x3176} {
			w.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
		}
		w.Flush()
		time.Sleep(time.Hour)
		return 0
	case "oversized":
		// The hello, then a reply header claiming 2^28 dwords.
		in := bufio.NewReader(os.Stdin)
		hello := make([]byte, translator.HelloSize)
		in.Read(hello)
		w := bufio.NewWriter(os.Stdout)
		for _, v := range []uint32{translator.Magic, translator.Version, 0, 0, translator.OpReply, 8 + 4<<28} {
			w.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
		}
		w.Flush()
		time.Sleep(time.Hour)
		return 0
	}
	if err := translator.Serve(os.Stdin, os.Stdout, "fake-"+mode, open); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type translatorFunc func(*translator.Request, []uint32) ([]uint32, error)

func (f translatorFunc) Translate(r *translator.Request, dst []uint32) ([]uint32, error) {
	return f(r, dst)
}

// start starts the test binary as a translator of the given mode.
func start(t *testing.T, mode string, timeout time.Duration) (*translator.Process, error) {
	t.Setenv("EBREF_TEST_TRANSLATOR", mode)
	p, err := translator.Start([]string{os.Args[0]}, translator.Options{Timeout: timeout, DumpDir: t.TempDir()})
	if p != nil {
		t.Cleanup(func() { p.Close() })
	}
	return p, err
}

// globalRequest is a call of one global barrier: compute writes, then
// pixel-shader reads.
func globalRequest() *translator.Request {
	b := []ddi.Barrier{ddi.NewGlobalBarrier(ddi.GlobalBarrier{SyncBefore: ddi.SyncComputeShading, SyncAfter: ddi.SyncPixelShading,
		AccessBefore: ddi.AccessUnorderedAccess, AccessAfter: ddi.AccessShaderResource})}
	all := ddi.DefinedAccessBits &^ ddi.AccessNoAccess
	return &translator.Request{Entry: translator.Entry0094, ListType: ddi.CommandListTypeDirect, Call: 1,
		Records: ddi.AppendEncodedBarriers(nil, b), Facts: []translator.Fact{{CompatBefore: all, CompatAfter: all}}}
}

func discrete(t *testing.T) *hwmodel.Profile {
	p, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	return p
}

func translate(t *testing.T, p *translator.Process) ([]uint32, error) {
	tr, err := p.Open(discrete(t))
	require.NoError(t, err)
	return tr.Translate(globalRequest(), nil)
}

// TestProcessSpeaksTheReference: the reference over the protocol gives
// the packets it gives in process, with the name from its hello.
func TestProcessSpeaksTheReference(t *testing.T) {
	p, err := start(t, "reference", 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "fake-reference", p.Name())
	got, err := translate(t, p)
	require.NoError(t, err)
	want, err := umd.NewReference(discrete(t)).Translate(globalRequest(), nil)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.NotEmpty(t, got)
	require.NoError(t, translator.Check(globalRequest(), got))
}

func kindOf(t *testing.T, err error) *translator.Error {
	t.Helper()
	var te *translator.Error
	require.True(t, errors.As(err, &te), "%v is a *translator.Error", err)
	return te
}

// TestHostileTranslators: each way a translator can misbehave is an
// error that says what, in bounded time, and the process is restarted
// for the next call where it can be.
func TestHostileTranslators(t *testing.T) {
	t.Run("exits at once", func(t *testing.T) {
		_, err := start(t, "exit0", time.Second)
		require.Error(t, err)
		assert.Equal(t, translator.ErrStart, kindOf(t, err).Kind)
		assert.Contains(t, err.Error(), "hello")
	})
	t.Run("speaks the first version", func(t *testing.T) {
		// Version 2 sends profiles with their costs and file: a version 1
		// translator would misread the frame, so it is refused first.
		_, err := start(t, "version1", 5*time.Second)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "the translator speaks version 1; ebref speaks 2")
	})
	t.Run("prints to standard output", func(t *testing.T) {
		_, err := start(t, "garbage", time.Second)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "does the translator print to standard output?")
		assert.Contains(t, err.Error(), "hell")
	})
	t.Run("crashes", func(t *testing.T) {
		p, err := start(t, "crash", 5*time.Second)
		require.NoError(t, err)
		_, err = translate(t, p)
		te := kindOf(t, err)
		assert.Equal(t, translator.ErrCrash, te.Kind)
		assert.Contains(t, err.Error(), "it ended with exit status 3")
		assert.Contains(t, strings.Join(te.Stderr, "\n"), "assertion failed")
		assert.NotEmpty(t, dumpFile(t, te))
		// The next call starts it again (and it crashes again).
		_, err = translate(t, p)
		assert.Equal(t, translator.ErrCrash, kindOf(t, err).Kind)
		assert.Equal(t, 2, p.Requests())
	})
	t.Run("never replies", func(t *testing.T) {
		p, err := start(t, "hang", 2*time.Second)
		require.NoError(t, err)
		began := time.Now()
		_, err = translate(t, p)
		assert.Equal(t, translator.ErrTimeout, kindOf(t, err).Kind)
		assert.ErrorContains(t, err, "it did not reply (no reply within 2s; it was killed)")
		assert.Less(t, time.Since(began), 3*time.Second)
	})
	t.Run("claims a huge reply", func(t *testing.T) {
		p, err := start(t, "oversized", 5*time.Second)
		require.NoError(t, err)
		_, err = translate(t, p)
		assert.Equal(t, translator.ErrProtocol, kindOf(t, err).Kind)
		assert.Contains(t, err.Error(), "not an OpReply of at most")
	})
	t.Run("names a surface it was not given", func(t *testing.T) {
		p, err := start(t, "bad-surface", 5*time.Second)
		require.NoError(t, err)
		words, err := translate(t, p)
		require.NoError(t, err)
		err = translator.Check(globalRequest(), words)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "surface 99, which none of the call's textures has")
	})
	t.Run("emits work ebref keeps", func(t *testing.T) {
		p, err := start(t, "work", 5*time.Second)
		require.NoError(t, err)
		words, err := translate(t, p)
		require.NoError(t, err)
		err = translator.Check(globalRequest(), words)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "FENCE_SIGNAL (opcode 0x32) is not a translator's packet")
		// A malformed packet of ebref's is refused for what it is, not
		// for its length.
		err = translator.Check(globalRequest(), []uint32{uint32(cmdbuf.MakeHeader(cmdbuf.OpWork, 0, 1)), 0})
		assert.ErrorContains(t, err, "WORK (opcode 0x10) is not a translator's packet")
	})
	t.Run("cannot be started", func(t *testing.T) {
		_, err := translator.Start([]string{"/nonexistent/translator"}, translator.Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "/nonexistent/translator")
	})
}

// BenchmarkRoundTrip is one call through the protocol to the reference
// served by another process: the cost the boundary adds to a Barrier call.
func BenchmarkRoundTrip(b *testing.B) {
	for _, mode := range []string{"empty", "reference"} {
		b.Run(mode, func(b *testing.B) { roundTrips(b, mode) })
	}
}

func roundTrips(b *testing.B, mode string) {
	b.Setenv("EBREF_TEST_TRANSLATOR", mode)
	self0, children0 := cpuTimes(b)
	p, err := translator.Start([]string{os.Args[0]}, translator.Options{})
	require.NoError(b, err)
	defer p.Close()
	prof, err := hwmodel.LookupProfile("discrete")
	require.NoError(b, err)
	tr, err := p.Open(prof)
	require.NoError(b, err)
	req := globalRequest()
	var words []uint32
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if words, err = tr.Translate(req, words[:0]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.StopTimer()
	p.Close() // the translator's CPU time is counted once it is waited for
	self, children := cpuTimes(b)
	// CPU time, user and system, per call: on a machine whose cores are
	// all busy (the default run's two jobs on two cores), what the
	// boundary adds to a run is its CPU time more than its latency.
	b.ReportMetric(float64(self-self0)/float64(n), "host-cpu-ns/op")
	b.ReportMetric(float64(children-children0)/float64(n), "translator-cpu-ns/op")
}

// TestRoundTripAllocatesNothing: once a copy runs and has its profile, a
// call through the protocol allocates nothing on ebref's side (a frame
// header read through io.Reader cost one allocation a call, a reply
// header another).
func TestRoundTripAllocatesNothing(t *testing.T) {
	p, err := start(t, "reference", 5*time.Second)
	require.NoError(t, err)
	tr, err := p.Open(discrete(t))
	require.NoError(t, err)
	req := globalRequest()
	words, err := tr.Translate(req, nil)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(200, func() {
		if words, err = tr.Translate(req, words[:0]); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

type conservativeOpener struct{}

func (conservativeOpener) Name() string { return "conservative" }
func (conservativeOpener) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return openConservative(p)
}

// TestConservativeIsConformant: a safe translation that is not the
// reference's (it waits for everything and drops every cache) is
// conformant on the default suites; what it costs and hides is reported
// beside the verdict, never as a failure.
func TestConservativeIsConformant(t *testing.T) {
	if testing.Short() {
		t.Skip("the default suites")
	}
	suites, err := hlk.Suites()
	require.NoError(t, err)
	rep := execute(t, hlk.Config{Suites: suites, Driver: reference.WithTranslator(conservativeOpener{})})
	notes := map[string]int{}
	for i := range rep.Cases {
		c := &rep.Cases[i]
		if !c.Status.Conformant() {
			t.Errorf("%s on %s: %s %v", c.Path(), c.Profile, c.Status, c.Messages)
		}
		for _, n := range c.Notes {
			notes[n[:strings.Index(n, ":")]]++
		}
	}
	t.Logf("notes: %v", notes)
	assert.NotZero(t, notes[strings.TrimSuffix(hlk.NoteCostlier, ": ")], "it costs more than the reference somewhere")

	// The same translator made subtly wrong at the boundary (the faults
	// apply to any translator's replies) is caught by safety alone.
	for _, fault := range []string{"drop-decompress", "drop-metadata-init", "drop-flush"} {
		rep := execute(t, hlk.Config{Suites: suites, Inject: fault, Driver: reference.WithTranslator(conservativeOpener{})})
		failed := 0
		for i := range rep.Cases {
			if !rep.Cases[i].Status.Conformant() {
				failed++
			}
		}
		assert.NotZero(t, failed, "%s: the conservative translator without it is caught", fault)
		t.Logf("%s: %d case-profiles fail", fault, failed)
	}
}

// TestCExampleIsConformant builds examples/translators/conservative with
// the system's C compiler and runs the default suites through it, out of
// process: conformant on safety, what it costs beside.
func TestCExampleIsConformant(t *testing.T) {
	if testing.Short() {
		t.Skip("the default suites")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s: %v): the C example translator is not built", cc, err)
	}
	bin := filepath.Join(t.TempDir(), "conservative")
	out, err := exec.Command("sh", "../../examples/translators/conservative/build.sh", bin).CombinedOutput()
	require.NoError(t, err, "build.sh: %s", out)
	p, err := translator.Start([]string{bin}, translator.Options{DumpDir: t.TempDir()})
	require.NoError(t, err)
	defer p.Close()
	assert.Equal(t, "conservative-c", p.Name())
	rep := execute(t, hlk.Config{Driver: reference.WithTranslator(p)})
	assert.True(t, rep.Conformant())
	var summary strings.Builder
	hlk.WriteSummary(&summary, rep)
	assert.Contains(t, summary.String(), "cost against the reference's record")
	t.Log(summary.String()[strings.Index(summary.String(), "beside the verdict"):])
	assert.Greater(t, p.Requests(), 30000)
}

// policyRef is the reference translation declaring a compression policy.
type policyRef struct {
	name string
	pol  func(*hwmodel.Profile) translator.Policy
}

func (o policyRef) Name() string { return o.name }
func (o policyRef) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return withPolicy{umd.NewReference(p), o.pol(p)}, nil
}

type withPolicy struct {
	*umd.Reference
	pol translator.Policy
}

func (w withPolicy) Policy() (translator.Policy, bool) { return w.pol, true }

// TestDeclaredPolicies: a translator that keeps nothing compressed is
// safe, and its cost and the reference's promises about decompression
// are reported beside the verdict; one that keeps render targets
// compressed in every layout, copy-engine layouts among them, is caught
// by the judge; one that compresses what the profile does not is refused
// when the device opens.
func TestDeclaredPolicies(t *testing.T) {
	if testing.Short() {
		t.Skip("the default suites")
	}
	suites, err := hlk.Suites()
	require.NoError(t, err)
	run := func(o translator.Opener) (fail, notes int) {
		rep := execute(t, hlk.Config{Suites: suites, Profiles: []string{"discrete"}, Driver: reference.WithTranslator(o)})
		for i := range rep.Cases {
			if !rep.Cases[i].Status.Conformant() {
				fail++
			}
			notes += len(rep.Cases[i].Notes)
		}
		return fail, notes
	}
	fail, notes := run(policyRef{"never-compressed", func(*hwmodel.Profile) translator.Policy { return translator.Policy{} }})
	assert.Zero(t, fail, "a surface never compressed is safe")
	assert.NotZero(t, notes, "the reference's promises about compression are not met")

	all := uint64(1<<36 - 1)
	fail, _ = run(policyRef{"always-compressed", func(p *hwmodel.Profile) translator.Policy {
		return translator.Policy{RenderTarget: all}
	}})
	assert.NotZero(t, fail, "render targets compressed where the copy engine reads them")

	p, err := hwmodel.LookupProfile("coherent")
	require.NoError(t, err)
	require.False(t, p.Compresses.RenderTarget, "coherent compresses nothing")
	_, err = umd.Open(p, umd.Options{Translator: policyRef{"wrong", func(*hwmodel.Profile) translator.Policy { return translator.Policy{RenderTarget: 1} }}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "does not compress them")
}

// TestPolicyOverTheProtocol: Serve answers each profile with the
// translator's policy, and a Process hands it on.
func TestPolicyOverTheProtocol(t *testing.T) {
	p, err := start(t, "never-compressed", 5*time.Second)
	require.NoError(t, err)
	tr, err := p.Open(discrete(t))
	require.NoError(t, err)
	pol, ok := tr.(translator.Policer)
	require.True(t, ok, "a translator whose hello declares policies is a Policer")
	got, declared := pol.Policy()
	assert.True(t, declared)
	assert.Equal(t, translator.Policy{}, got)
	_, err = tr.Translate(globalRequest(), nil)
	require.NoError(t, err)

	ref, err := start(t, "reference", 5*time.Second)
	require.NoError(t, err)
	tr, err = ref.Open(discrete(t))
	require.NoError(t, err)
	_, declared = tr.(translator.Policer).Policy()
	assert.False(t, declared, "the reference declares none: its table is the default")
}

// TestJobsAndCopies: a run through a translator in other processes runs,
// by default, translator.JobsPerCPU cases a CPU, whose requests share
// translator.CopiesPerCPU copies a CPU, never more than
// translator.MaxInstances; the reference in process one case a CPU; and
// hlk.Config.Jobs, when set, wins.
func TestJobsAndCopies(t *testing.T) {
	p, err := start(t, "reference", 5*time.Second)
	require.NoError(t, err)
	cpus := runtime.GOMAXPROCS(0)
	assert.Equal(t, min(translator.CopiesPerCPU*cpus, translator.MaxInstances), p.Instances())
	assert.Equal(t, translator.DefaultInstances(), p.Instances())
	assert.Equal(t, translator.JobsPerCPU*cpus, hlk.Jobs(hlk.Config{Driver: reference.WithTranslator(p)}))
	assert.Equal(t, cpus, hlk.Jobs(hlk.Config{Driver: reference.Driver}))
	assert.Equal(t, cpus, hlk.Jobs(hlk.Config{Driver: reference.WithTranslator(umd.ReferenceOpener{})}), "a translator in process waits for nothing")
	assert.Equal(t, 3, hlk.Jobs(hlk.Config{Driver: reference.WithTranslator(p), Jobs: 3}))
	q, err := translator.Start([]string{os.Args[0]}, translator.Options{Instances: 5})
	require.NoError(t, err)
	defer q.Close()
	assert.Equal(t, 5, q.Instances())
	assert.Equal(t, translator.JobsPerCPU*cpus, hlk.Jobs(hlk.Config{Driver: reference.WithTranslator(q)}), "the copies do not set the jobs")

	// Each copy is a process: more than MaxInstances is refused, saying
	// so, before any starts.
	_, err = translator.Start([]string{os.Args[0]}, translator.Options{Instances: translator.MaxInstances + 1})
	assert.ErrorContains(t, err, "65 copies asked; at most 64 run at once")
	// So a machine with many CPUs starts no more by default.
	runtime.GOMAXPROCS(2 * translator.MaxInstances)
	defer runtime.GOMAXPROCS(cpus)
	r, err := translator.Start([]string{os.Args[0]}, translator.Options{})
	require.NoError(t, err)
	defer r.Close()
	assert.Equal(t, translator.MaxInstances, r.Instances())
}

// BenchmarkDefaultRun is the default suites with the reference's own
// translation, through the seam in process, and through the protocol to
// the reference in another process: what the boundary adds to a run. Run
// them back to back (-count) and compare: the machine's load moves them
// together. Beside the time, the CPU time (user and system) of ebref and
// of the translator's copies, which is what the boundary costs a run on
// cores that are all busy; and the garbage collector's cycles, its CPU
// time and its idle mark workers' (runtime/metrics' estimates, from the
// time its workers held a P), which a case waiting for a reply makes
// room for.
//
// One unmeasured run in process comes first: a process's first run is
// slower than the next by up to 0.6 s (its heap grows, its pools and
// tables fill), and without it the first configuration, in process, paid
// that alone and the boundary looked that much cheaper.
func BenchmarkDefaultRun(b *testing.B) {
	suites, err := hlk.Suites()
	require.NoError(b, err)
	b.Setenv("EBREF_TEST_TRANSLATOR", "reference")
	conformant(b, hlk.Config{Suites: suites, Driver: reference.Driver})
	for _, c := range []struct {
		name      string
		instances int // a translator in this many processes; 0: in process
		seam      bool
		jobs      int
	}{
		{name: "in-process"},
		{name: "seam", seam: true},
		{name: "process", instances: -1},
		// One case a CPU, as in process: the harness's default before
		// translator.JobsPerCPU.
		{name: "process-1-job-a-cpu", instances: runtime.GOMAXPROCS(0), jobs: runtime.GOMAXPROCS(0)},
	} {
		b.Run(c.name, func(b *testing.B) {
			self0, children0 := cpuTimes(b)
			gc0 := gcTimes()
			driver := reference.Driver
			var proc *translator.Process
			switch {
			case c.seam:
				driver = reference.WithTranslator(umd.ReferenceOpener{})
			case c.instances != 0:
				proc, err = translator.Start([]string{os.Args[0]}, translator.Options{Instances: max(c.instances, 0)})
				require.NoError(b, err)
				defer proc.Close()
				driver = reference.WithTranslator(proc)
			}
			runs := 0
			for b.Loop() {
				conformant(b, hlk.Config{Suites: suites, Driver: driver, Jobs: c.jobs})
				runs++
			}
			b.StopTimer()
			if proc != nil {
				b.ReportMetric(float64(proc.Requests())/float64(runs), "calls/op")
				b.ReportMetric(float64(proc.Exchanges())/float64(runs), "exchanges/op")
				proc.Close() // its copies' CPU time counts once they are waited for
			}
			self, children := cpuTimes(b)
			gc := gcTimes()
			b.ReportMetric((gc.cycles-gc0.cycles)/float64(runs), "gcs/op")
			b.ReportMetric((gc.total-gc0.total)/float64(runs), "gc-cpu-s/op")
			b.ReportMetric((gc.idle-gc0.idle)/float64(runs), "gc-idle-cpu-s/op")
			b.ReportMetric(float64(self-self0)/1e9/float64(runs), "ebref-cpu-s/op")
			b.ReportMetric(float64(children-children0)/1e9/float64(runs), "translator-cpu-s/op")
		})
	}
}

// BenchmarkBoundary is what the boundary adds to the default run, with
// less of the machine's noise than BenchmarkDefaultRun: this virtual
// machine's speed drifts by a tenth within seconds, more than the
// boundary costs, and a run takes eight. The run's cases are split into
// shards (hlk.Config.Shards: every shardsOfARun-th case, so each shard is
// a sample of every suite), and each shard runs in process and through
// the protocol back to back, which of the two first alternating, so that
// both see the same machine; the times add up to a run's each way.
// Reported: the wall time of a run in process and through the protocol
// and what the boundary adds; ebref's CPU it adds; the translator's CPU a
// run; exchanges a run. One unmeasured run in process comes first
// (BenchmarkDefaultRun says why).
func BenchmarkBoundary(b *testing.B) {
	suites, err := hlk.Suites()
	require.NoError(b, err)
	b.Setenv("EBREF_TEST_TRANSLATOR", "reference")
	proc, err := translator.Start([]string{os.Args[0]}, translator.Options{})
	require.NoError(b, err)
	defer proc.Close()
	through := reference.WithTranslator(proc)
	conformant(b, hlk.Config{Suites: suites, Driver: reference.Driver})
	_, children0 := cpuTimes(b)
	var wall, cpu [2]time.Duration // in process, through the protocol
	runs := 0
	for b.Loop() {
		for k := 1; k <= shardsOfARun; k++ {
			for i := range 2 {
				mode := (k + i) % 2 // shard by shard, the other first
				driver := reference.Driver
				if mode == 1 {
					driver = through
				}
				start, self0 := time.Now(), selfCPU(b)
				conformant(b, hlk.Config{Suites: suites, Driver: driver, Shard: k, Shards: shardsOfARun})
				wall[mode] += time.Since(start)
				cpu[mode] += time.Duration(selfCPU(b) - self0)
			}
		}
		runs++
	}
	b.StopTimer()
	exchanges := proc.Exchanges()
	proc.Close() // its copies' CPU time counts once they are waited for
	_, children := cpuTimes(b)
	per := func(d time.Duration) float64 { return d.Seconds() / float64(runs) }
	b.ReportMetric(per(wall[0]), "in-process-s/op")
	b.ReportMetric(per(wall[1]), "process-s/op")
	b.ReportMetric(per(wall[1]-wall[0]), "added-s/op")
	b.ReportMetric(per(cpu[1]-cpu[0]), "ebref-added-cpu-s/op")
	b.ReportMetric(float64(children-children0)/1e9/float64(runs), "translator-cpu-s/op")
	b.ReportMetric(float64(exchanges)/float64(runs), "exchanges/op")
}

// shardsOfARun is how many shards BenchmarkBoundary splits a run into: a
// second or so each way.
const shardsOfARun = 8

// selfCPU is this process's CPU time, user and system, in ns.
func selfCPU(tb testing.TB) int64 {
	self, _ := cpuTimes(tb)
	return self
}

// conformant runs c, cost unbounded, and fails b unless it is conformant.
func conformant(b *testing.B, c hlk.Config) {
	c.AnyCost = true
	if !execute(b, c).Conformant() {
		b.Fatal("not conformant")
	}
}

// execute runs c, on the default suites if it names none, and fails tb
// if the run cannot be made.
func execute(tb testing.TB, c hlk.Config) *hlk.Report {
	if c.Suites == nil {
		var err error
		c.Suites, err = hlk.Suites()
		require.NoError(tb, err)
	}
	rep, err := hlk.Execute(context.Background(), c)
	require.NoError(tb, err)
	return rep
}

// dumpFile is the dump a lost copy's error names, which must be there.
func dumpFile(t *testing.T, te *translator.Error) []byte {
	require.NotEmpty(t, te.Dump)
	data, err := os.ReadFile(te.Dump)
	require.NoError(t, err)
	return data
}

// TestCrashesOnProfile: a translator that crashes when it is sent a
// profile, as a case's device asks for its compression policy, makes
// every case Crash, saying so, not Fail: the case did not run.
func TestCrashesOnProfile(t *testing.T) {
	p, err := start(t, "crash-on-profile", 5*time.Second)
	require.NoError(t, err)
	rep := execute(t, hlk.Config{Only: []string{"barriers"}, Profiles: []string{"discrete"}, Driver: reference.WithTranslator(p)})
	require.NotEmpty(t, rep.Cases)
	for i := range rep.Cases {
		c := &rep.Cases[i]
		if c.Status == hlk.Skipped || c.Status == hlk.NotSupported {
			continue
		}
		assert.Equal(t, hlk.Crash, c.Status, c.Path())
		msg := strings.Join(c.Messages, "\n")
		assert.Contains(t, msg, "opening the device")
		assert.Contains(t, msg, "it ended with exit status 6")
	}
	assert.False(t, rep.Conformant())
}

// TestCrashesMidRun: a translator that crashes on its two hundredth
// call, every time it is started, fails those cases as Crash with its exit
// status and last words, and every other case still runs and passes.
func TestCrashesMidRun(t *testing.T) {
	p, err := start(t, "crash-every-200", 5*time.Second)
	require.NoError(t, err)
	rep := execute(t, hlk.Config{Only: []string{"barriers", "hlk"}, Driver: reference.WithTranslator(p)})
	crashed, passed := 0, 0
	for i := range rep.Cases {
		c := &rep.Cases[i]
		switch c.Status {
		case hlk.Crash:
			crashed++
			msg := strings.Join(c.Messages, "\n")
			assert.Contains(t, msg, "it ended with exit status 4")
			assert.Contains(t, msg, "the two hundredth call")
			assert.Contains(t, msg, "ebref translator replay")
		case hlk.Pass:
			passed++
		}
	}
	assert.NotZero(t, crashed)
	assert.False(t, rep.Conformant())
	assert.Greater(t, passed, len(rep.Cases)/2, "the rest ran, on a translator started again")
	t.Logf("%d of %d case-profiles crashed, %d passed", crashed, len(rep.Cases), passed)
}

// TestReferenceOverTheProtocol: the reference served by another process
// (this test binary, re-executed) records, case for case, the packets the
// driver records by itself: the protocol carries the seam whole.
func TestReferenceOverTheProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("the default suites twice")
	}
	p, err := start(t, "reference", 5*time.Second)
	require.NoError(t, err)
	suites, err := hlk.Suites()
	require.NoError(t, err)
	in := execute(t, hlk.Config{Driver: reference.Driver, Suites: suites, AnyCost: true})
	over := execute(t, hlk.Config{Suites: suites, AnyCost: true, Driver: reference.WithTranslator(p)})
	require.Len(t, over.Cases, len(in.Cases))
	differ := 0
	for i := range in.Cases {
		a, b := &in.Cases[i], &over.Cases[i]
		if a.Status != b.Status || a.Packets != b.Packets || a.Counters["cycles"] != b.Counters["cycles"] {
			if differ++; differ <= 5 {
				t.Errorf("%s on %s: %s %s in process, %s %s over the protocol %v", a.Path(), a.Profile, a.Status, a.Packets, b.Status, b.Packets, b.Messages)
			}
		}
	}
	assert.Zero(t, differ)
	assert.Greater(t, p.Requests(), 30000)
	// A list's calls go together: about a third as many exchanges.
	assert.Less(t, p.Exchanges(), p.Requests()/2)
	t.Logf("%d calls in %d exchanges", p.Requests(), p.Exchanges())
}
