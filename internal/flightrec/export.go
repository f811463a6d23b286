package flightrec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rollscope/engine/scenario"
	"rollscope/kube/recording"
)

// ExportScenario writes the recording at path, at the clock time at (its
// end when at is ""), as a scenario file at out (scenario.Export), that
// `rollscope --scenario out` runs from that moment. Nothing is written
// when anything is wrong.
func ExportScenario(path, at, out string) error {
	tape, err := recording.Open(path)
	if err != nil {
		return badInput{err}
	}
	if len(tape.Frames) == 0 {
		return badInput{fmt.Errorf("cannot export %s: it holds no change of the cluster", path)}
	}
	p := recording.NewPlayer(tape)
	moment := tape.End()
	if at != "" {
		if err := p.SeekClock(at); err != nil {
			return badInput{fmt.Errorf("--at %s: %w", at, err)}
		}
		moment = p.Now()
	}
	name := strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
	data, err := scenario.Export(name, tape.Header.Namespace, tape.ObjectsAt(moment))
	if err != nil {
		return badInput{fmt.Errorf("cannot export %s at %s: %w", path, moment.Format(time.TimeOnly), err)}
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return badInput{fmt.Errorf("cannot write the scenario to %s: %v — give a path in a directory you can write", out, err)}
	}
	return nil
}
