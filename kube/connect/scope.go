package connect

import (
	"slices"
)

// Contexts are the kubeconfig's context names, sorted, for `:ctx`; nil when
// the kubeconfig cannot be read (Connect says why).
func (f *Flags) Contexts() []string {
	raw, err := f.loader().RawConfig()
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(raw.Contexts))
	for name := range raw.Contexts {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Switch points the flags at another context and namespace, as if given as
// --context and -n, for the next Connect: the console asked for another
// scope. "" leaves each as it is; a new context without a namespace takes
// that context's own.
func (f *Flags) Switch(context, namespace string) {
	if context != "" && context != f.context {
		// `:ctx all` is --all-contexts; `:ctx a,b` is --context a,b.
		f.context, f.allContexts = context, context == "all"
		if f.allContexts {
			f.context = ""
		}
		if namespace == "" {
			f.namespace = ""
		}
	}
	if namespace != "" {
		f.namespace = namespace
	}
}
