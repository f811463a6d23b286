package watch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"rollscope/kube/objects"
)

// The first list of a large namespace (tens of thousands of pods) takes
// longer than a tight --request-timeout, and client-go applies that timeout
// to every request of the client, watches included: the list, or the watch
// that streams it, was cut off and retried from zero forever, and the
// console never showed the cluster. So the bridge watches through a client
// without the timeout — a watch is meant to stay open — and lists in pages,
// each page a request of its own bounded by the timeout.

// firstListPage is how many objects a page of a live list holds: few enough
// that a page is served well within any sensible request timeout, many
// enough that 30,000 pods are 15 requests, which the console's rate limit
// lets through in about a second.
const firstListPage = 2000

// watching is the client the bridge watches through, built anew from cfg:
// without its request timeout when it has one (the page timeout is then
// applied to each list page instead), and reading Deployments and
// ReplicaSets without decoding an unchanged template again (appswire.go).
// It shares client's rate limit, so the console's requests keep one budget,
// and client's connections (client-go shares a transport between configs
// that differ only so). The page timeout is 0 when there is none.
func watching(client kubernetes.Interface, cfg *rest.Config) (kubernetes.Interface, time.Duration, error) {
	if cfg == nil {
		return client, 0, nil
	}
	c := rest.CopyConfig(cfg)
	c.Timeout = 0
	shareRateLimit(c, client)
	var typed kubernetes.Interface
	typed, err := kubernetes.NewForConfig(c)
	if err == nil {
		typed, err = AppsFromWire(typed, c)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("cannot make a client to watch %s: %w", cfg.Host, err)
	}
	timeout := max(cfg.Timeout, 0)
	if _, custom := client.(objects.Dynamic); !custom {
		return typed, timeout, nil
	}
	dyn, err := dynamic.NewForConfig(c)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot make a client to watch %s: %w", cfg.Host, err)
	}
	return objects.WithDynamic(typed, dyn), timeout, nil
}

// shareRateLimit gives c the rate limiter of client's requests, when c has
// none of its own.
func shareRateLimit(c *rest.Config, client kubernetes.Interface) {
	if c.RateLimiter != nil || client == nil {
		return
	}
	if core, ok := client.CoreV1().RESTClient().(*rest.RESTClient); ok && core != nil {
		c.RateLimiter = core.GetRateLimiter()
	}
}

// smallestPage is as far as a page that outlasts the request timeout is
// halved: a hundred objects that a server cannot send within the timeout
// say the timeout is wrong, not the page.
const smallestPage = 100

// page bounds one list request by the page timeout, and asks for a
// paginated list where the reflector asked for a page of "any" version:
// the API server serves resourceVersion 0 from its watch cache whole,
// ignoring the limit, which would make the first list one request again.
// Once a page has outlasted the timeout, pages ask for fewer objects
// (pageTimedOut).
func (s *source) page(ctx context.Context, opts metav1.ListOptions) (context.Context, context.CancelFunc, metav1.ListOptions) {
	if opts.Limit > 0 && opts.ResourceVersion == "0" && opts.Continue == "" {
		opts.ResourceVersion = ""
	}
	if limit := s.pageLimit.Load(); limit > 0 && opts.Limit > limit {
		opts.Limit = limit
	}
	if opts.Continue == "" {
		s.listed.Store(0) // a new list starts from nothing
	}
	if s.pageTimeout <= 0 {
		return ctx, func() {}, opts
	}
	ctx, cancel := context.WithTimeout(ctx, s.pageTimeout)
	return ctx, cancel, opts
}

// pageTimedOut halves the pages of s's lists when a page of limit objects
// outlasted the page timeout (ctx is the page's own; parent, the list's, is
// still alive): a slow API server, or a tight --request-timeout, would
// otherwise cut off the same page of the next list too, and the list,
// started again from its first page each time, would never end.
func (s *source) pageTimedOut(ctx, parent context.Context, limit int64) {
	if s.pageTimeout <= 0 || limit <= smallestPage || parent.Err() != nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return
	}
	s.pageLimit.Store(max(limit/2, smallestPage))
}

// countPage adds a page's objects to what the kind has listed so far.
func (s *source) countPage(list runtime.Object) { s.listed.Add(int64(meta.LenList(list))) }

// streaming notes that a watch starts by streaming the whole list (client-go's
// WatchList): what it has streamed so far starts from nothing. Only pods are
// counted as they stream (podclient.go), a count no other kind needs.
func (s *source) streaming(opts metav1.ListOptions) {
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		s.listed.Store(0)
	}
}
