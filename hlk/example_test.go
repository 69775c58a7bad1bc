package hlk_test

import (
	"fmt"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// A scenario in the scenario language (docs/scenarios.md) run against the
// reference driver on one profile: the dependent copy without its barrier
// races in an extended-async list, and the judge names the hazard.
func ExampleRun() {
	cases, err := scenario.Parse("race.ebs", `
scenario "a dependent copy without its barrier"
buffer SRC 4096 in upload
write SRC 0 fill 0x5a 4096
buffer MID 4096
buffer DST 4096
queue Q DIRECT
list L DIRECT flags ALLOW_EXTENDED_ASYNC
  copy-buffer MID 0 SRC 0 4096
  copy-buffer DST 0 MID 0 4096
end
execute Q L
expect hazard read-after-write on MID
`, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := hwmodel.LookupProfile("discrete")
	r := hlk.Run(reference.Driver, cases[0], p, "")
	fmt.Println(cases[0].Name(), r.Status)
	fmt.Println(r.Hazards[0].Kind, "on", r.Hazards[0].Resource)
	// Output:
	// race.ebs: a dependent copy without its barrier Pass
	// read-after-write on MID
}
