package hlk

import (
	"runtime"

	"github.com/ebref/ebref/hlk/driver"
)

// The driver a run judges implements package hlk/driver's interfaces
// (ebref's own is package hlk/reference's); these names are hlk's for
// them.
type (
	Driver        = driver.Driver
	DeviceOptions = driver.DeviceOptions
	Device        = driver.Device
	Queue         = driver.Queue
	Fence         = driver.Fence
	CommandList   = driver.CommandList
)

// isReference reports whether d says it is ebref's reference driver, whose
// cost record bounds a run (Config.Costs).
func isReference(d Driver) bool {
	r, ok := d.(interface{ IsReference() bool })
	return ok && r.IsReference()
}

// translates reports whether d translates its Barrier calls with a
// translator, whose cost a run compares with the reference's record.
func translates(d Driver) bool {
	t, ok := d.(interface{ Translates() bool })
	return ok && t.Translates()
}

// Jobs is how many cases a run with c runs at once: c.Jobs, or what the
// driver asks for (a Jobs method: hlk/reference's with a translator in
// other processes asks for as many as the translator has copies), or one
// per CPU.
func Jobs(c Config) int {
	if c.Jobs > 0 {
		return c.Jobs
	}
	if j, ok := c.Driver.(interface{ Jobs() int }); ok && j.Jobs() > 0 {
		return j.Jobs()
	}
	return runtime.GOMAXPROCS(0)
}
