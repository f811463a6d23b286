package flightrec

// badInput is what the operator must correct, and rollscope exits 2 on:
// a recording or format the postmortem cannot read, an --at the recording
// does not reach, an output that cannot be written.
type badInput struct{ error }

func (badInput) BadInput() bool { return true }

func (b badInput) Unwrap() error { return b.error }
