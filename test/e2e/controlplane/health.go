package controlplane

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// waitHealthy polls url until it answers 200, the process exits, or ctx ends.
// With caPEM the server certificate is verified against it; without, the
// probe skips verification (the components' self-signed health endpoints).
// token, if set, is sent as a bearer token.
func waitHealthy(ctx context.Context, p *process, url string, caPEM []byte, token *string) error {
	tlsConfig := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // self-signed loopback health endpoints
	if caPEM != nil {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(caPEM)
		tlsConfig = &tls.Config{RootCAs: pool}
	}
	client := &http.Client{
		Timeout:   2 * time.Second,
		Transport: &http.Transport{TLSClientConfig: tlsConfig, DisableKeepAlives: true},
	}
	last := "no answer yet"
	for {
		if err := p.exitErr(); err != nil {
			return fmt.Errorf("waiting for %s to become healthy at %s: %w (last probe: %s)", p.name, url, err, last)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("building the health probe for %s: %w", p.name, err)
		}
		if token != nil {
			req.Header.Set("Authorization", "Bearer "+*token)
		}
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to become healthy at %s: %w (last probe: %s)", p.name, url, ctx.Err(), last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
