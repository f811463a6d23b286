package flightrec

import "github.com/spf13/pflag"

// Flags are the flight recorder's flags: where a console, --plain or
// `rollscope record` records (the console's is --record-to: --record is
// kubectl's change-cause), and whether env values are kept.
type Flags struct {
	To  string
	Env bool
	// Rec is the recording, open while the command runs (Open); nil
	// records nothing.
	Rec *Recorder
}

// AddTo declares the flags on fs, the path's as name (and short).
func (f *Flags) AddTo(fs *pflag.FlagSet, name, short string) {
	fs.StringVarP(&f.To, name, short, "", "record every change the console watches to this file, for rollscope replay")
	fs.BoolVar(&f.Env, "record-env", false, "keep environment variables' values in the recording (masked otherwise)")
}

// Open starts the recording, refusing a path that cannot be written
// before anything starts; user is the kubeconfig user actions are sent as.
func (f *Flags) Open(user string) (err error) {
	f.Rec, err = Open(f.To, f.Env, user)
	return err
}
