package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"time"

	"github.com/roundtable-ai/roundtable/store"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// etcdName is what --db and migrate's --from and --to take to mean the
// etcd cluster of [store] rather than a file.
const etcdName = "etcd"

// openStore opens the store of the config, for writing unless readOnly:
// the bbolt file at path (store.path when path is empty), or the etcd
// cluster of [store] when path is "etcd", or empty with backend "etcd".
// A file is created unless readOnly.
func (a *App) openStore(ctx context.Context, cfg Config, path string, readOnly bool) (store.Backend, error) {
	if path == etcdName || (path == "" && cfg.Store.Backend == "etcd") {
		return a.openEtcd(ctx, cfg, readOnly)
	}
	if path == "" {
		path = cfg.Store.Path
	}
	if readOnly {
		if err := checkReadable(path); err != nil {
			return nil, err
		}
	}
	db, err := store.Open(path, store.Options{LockTimeout: time.Duration(cfg.Store.LockTimeout), ReadOnly: readOnly})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	return db, nil
}

// checkReadable refuses a path that holds no database to read: none, or
// an empty file (bbolt would try to lay a new database out in it, and
// fail on the read-only file).
func checkReadable(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	if info.Size() == 0 {
		return fmt.Errorf("database %s is an empty file: it holds no tables (name a roundtable database, or a backup of one)", path)
	}
	return nil
}

// openEtcd opens the etcd store of [store].
func (a *App) openEtcd(ctx context.Context, cfg Config, readOnly bool) (*etcdstore.DB, error) {
	if cfg.Store.Backend != "etcd" {
		return nil, usagef("%sstore.backend: is %q; set backend = \"etcd\" and store.endpoints to use etcd", a.configFile(), cfg.Store.Backend)
	}
	opt, err := a.etcdOptions(cfg.Store.EtcdConfig)
	if err != nil {
		return nil, err
	}
	opt.ReadOnly = readOnly
	db, err := etcdstore.Open(ctx, opt)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	return db, nil
}

// etcdOptions turns [store]'s etcd keys into the store's options, with the
// credentials from the environment.
func (a *App) etcdOptions(e EtcdConfig) (etcdstore.Options, error) {
	opt := etcdstore.Options{Endpoints: e.Endpoints, Prefix: e.Prefix, DialTimeout: time.Duration(e.DialTimeout),
		MaxRequestBytes: e.MaxRequestBytes, MaxTxnOps: e.MaxTxnOps}
	if e.UsernameEnv != "" {
		var err error
		if opt.Username, err = a.secret("store.username_env", e.UsernameEnv); err != nil {
			return opt, err
		}
		if opt.Password, err = a.secret("store.password_env", e.PasswordEnv); err != nil {
			return opt, err
		}
	}
	if e.CAFile == "" && e.CertFile == "" {
		return opt, nil
	}
	opt.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	if e.CAFile != "" {
		pem, err := os.ReadFile(e.CAFile)
		if err != nil {
			return opt, fmt.Errorf("%sstore.ca_file: %w", a.configFile(), err)
		}
		opt.TLS.RootCAs = x509.NewCertPool()
		if !opt.TLS.RootCAs.AppendCertsFromPEM(pem) {
			return opt, fmt.Errorf("%sstore.ca_file: %s holds no PEM certificate", a.configFile(), e.CAFile)
		}
	}
	if e.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(e.CertFile, e.KeyFile)
		if err != nil {
			return opt, fmt.Errorf("%sstore.cert_file, store.key_file: %w", a.configFile(), err)
		}
		opt.TLS.Certificates = []tls.Certificate{cert}
	}
	return opt, nil
}

// storeName names a store in messages: a file's path, or etcd's
// endpoints and prefix.
func storeName(s store.Backend) string {
	if db, ok := s.(*store.DB); ok {
		return db.Path()
	}
	return fmt.Sprint(s)
}
