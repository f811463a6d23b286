package kind

import (
	"errors"
	"fmt"
	"strings"
)

// Ref names one workload: its kind and name.
type Ref struct {
	Kind Kind
	Name string
}

// String is kubectl's `kind/name`.
func (r Ref) String() string { return string(r.Kind) + "/" + r.Name }

// ErrNoName says that a `kind/` names no object.
var ErrNoName = errors.New("names no object")

// unknownError is a `kind/NAME` whose kind is none rollscope knows.
type unknownError struct {
	// Text is what was read; Kind is its kind part.
	Text, Kind string
}

func (e *unknownError) Error() string {
	return fmt.Sprintf("%q: %q is not a workload kind rollscope knows; write %s", e.Text, e.Kind, Accepted())
}

// Accepted lists the kinds Parse takes, for error sentences:
// "deployment/NAME (deploy), … or daemonset/NAME (ds)".
func Accepted() string {
	var out []string
	for _, e := range entries {
		out = append(out, fmt.Sprintf("%s/NAME (%s)", e.Kind, e.Short))
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// Parse reads a workload named the way kubectl takes it: `kind/NAME` or
// `kind NAME`, the kind spelled as Lookup reads it. It is the one reader of
// such names: command-line arguments, the `:` prompt, scenario targets and
// --plain targets all go through it.
//
// Text without a separator is a bare name: Parse returns it with no Kind,
// and the caller decides what it means (a deployment, a filter). A kind
// with nothing after it returns the kind, if known, and ErrNoName; an
// unknown kind returns an *unknownError.
func Parse(text string) (Ref, error) {
	text = strings.TrimSpace(text)
	word, name, ok := Split(text)
	if !ok {
		return Ref{Name: name}, nil
	}
	k, known := Lookup(word)
	if name == "" {
		return Ref{Kind: k}, fmt.Errorf("%q %w", text, ErrNoName)
	}
	if !known {
		return Ref{}, &unknownError{Text: text, Kind: word}
	}
	return Ref{Kind: k, Name: name}, nil
}

// Split cuts `kind/NAME` or `kind NAME` into its kind word, as written, and
// its name; ok is false for a bare name. A live cluster resolves the word
// through its discovery (kube/connect's Kinds) rather than Lookup.
func Split(text string) (word, name string, ok bool) {
	text = strings.TrimSpace(text)
	i := strings.IndexAny(text, "/ \t")
	if i < 0 {
		return "", text, false
	}
	return text[:i], strings.TrimSpace(text[i+1:]), true
}
