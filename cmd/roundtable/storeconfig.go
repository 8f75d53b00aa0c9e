package main

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// EtcdConfig are the [store] keys of the etcd backend.
type EtcdConfig struct {
	Endpoints   []string `toml:"endpoints"`
	Prefix      string   `toml:"prefix"`
	DialTimeout Duration `toml:"dial_timeout"`
	// LeaseTTL is the time to live of the lease by which a serve owns
	// its tables: the others take them over that long after a crash.
	LeaseTTL Duration `toml:"lease_ttl"`
	// UsernameEnv and PasswordEnv name the environment variables that
	// hold the credentials of etcd's authentication.
	UsernameEnv string `toml:"username_env"`
	PasswordEnv string `toml:"password_env"`
	// CAFile, CertFile and KeyFile secure https:// endpoints: the
	// cluster's certificate authority, and a client certificate.
	CAFile   string `toml:"ca_file"`
	CertFile string `toml:"cert_file"`
	KeyFile  string `toml:"key_file"`
	// MaxRequestBytes and MaxTxnOps are the cluster's limits (etcd's
	// --max-request-bytes and --max-txn-ops): larger writes are split.
	MaxRequestBytes int `toml:"max_request_bytes"`
	MaxTxnOps       int `toml:"max_txn_ops"`
}

func etcdDefaults() EtcdConfig {
	return EtcdConfig{Prefix: etcdstore.DefaultPrefix, DialTimeout: Duration(etcdstore.DefaultDialTimeout), LeaseTTL: Duration(etcdstore.DefaultTTL),
		MaxRequestBytes: etcdstore.DefaultMaxRequestBytes, MaxTxnOps: etcdstore.DefaultMaxTxnOps}
}

// The least limits the etcd store can work within: a table's head, a
// snapshot's and a few events in one transaction.
const (
	minRequestBytes = 64 << 10
	minTxnOps       = 8
)

func (s StoreConfig) validate() error {
	switch s.Backend {
	case "bbolt":
		if s.Path == "" {
			return errors.New("store.path: is empty")
		}
		if key := s.etcdKeySet(); key != "" {
			return fmt.Errorf("store.%s: is set, but store.backend is \"bbolt\" (set backend = \"etcd\" to keep tables in etcd)", key)
		}
		return nil
	case "etcd":
		return s.EtcdConfig.validate()
	}
	return fmt.Errorf("store.backend: %q is not bbolt or etcd", s.Backend)
}

// etcdKeySet names a key only the etcd backend reads that is set.
func (s StoreConfig) etcdKeySet() string {
	for _, k := range []struct {
		key string
		set bool
	}{{"endpoints", len(s.Endpoints) > 0}, {"username_env", s.UsernameEnv != ""}, {"password_env", s.PasswordEnv != ""},
		{"ca_file", s.CAFile != ""}, {"cert_file", s.CertFile != ""}, {"key_file", s.KeyFile != ""}} {
		if k.set {
			return k.key
		}
	}
	return ""
}

func (e EtcdConfig) validate() error {
	if len(e.Endpoints) == 0 {
		return errors.New(`store.endpoints: is empty; backend "etcd" needs the client URLs of the cluster, such as ["http://127.0.0.1:2379"]`)
	}
	https := false
	for i, ep := range e.Endpoints {
		u, err := url.Parse(ep)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("store.endpoints[%d]: %q is not an http:// or https:// URL", i, ep)
		}
		https = https || u.Scheme == "https"
	}
	switch {
	case !strings.HasPrefix(e.Prefix, "/") || !strings.HasSuffix(e.Prefix, "/"):
		return fmt.Errorf("store.prefix: %q must start and end with \"/\"", e.Prefix)
	case e.DialTimeout <= 0:
		return fmt.Errorf("store.dial_timeout: %s is not positive", time.Duration(e.DialTimeout))
	case e.LeaseTTL < Duration(time.Second):
		return fmt.Errorf("store.lease_ttl: %s is less than a second", time.Duration(e.LeaseTTL))
	case e.MaxRequestBytes < minRequestBytes:
		return fmt.Errorf("store.max_request_bytes: %d is less than %d", e.MaxRequestBytes, minRequestBytes)
	case e.MaxTxnOps < minTxnOps:
		return fmt.Errorf("store.max_txn_ops: %d is less than %d", e.MaxTxnOps, minTxnOps)
	case (e.UsernameEnv == "") != (e.PasswordEnv == ""):
		return errors.New("store.username_env and store.password_env: set both or neither")
	case (e.CertFile == "") != (e.KeyFile == ""):
		return errors.New("store.cert_file and store.key_file: set both or neither")
	case !https && (e.CAFile != "" || e.CertFile != ""):
		return errors.New("store.ca_file, store.cert_file: TLS files are set but no endpoint is https://")
	}
	return nil
}
