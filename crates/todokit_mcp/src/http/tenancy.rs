//! Each caller's view of the store: the whole of it for the operator, one
//! namespace for a tenant (its [`Scope`]), and the services and overviews
//! those views share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use todokit::infra::store::NamespacedStore;
use todokit::{ConversationContext, TodoWriteService, profiles};

use super::overview::Overview;
use super::tokens::Caller;

/// Services by namespace (none: the whole store), then by profile name.
type Services = HashMap<Option<Arc<str>>, HashMap<&'static str, TodoWriteService>>;

/// The store as each caller sees it: one service per namespace and profile
/// (made on first use and kept, so each keeps its locks for exclusive
/// calls), and one overview per namespace, shared by all its streams.
pub(super) struct Tenancy {
    /// The service `serve` was started with: the operator's, for its
    /// `--profile`.
    main: TodoWriteService,
    services: Mutex<Services>,
    overviews: tokio::sync::Mutex<HashMap<Option<Arc<str>>, Arc<Overview>>>,
}

impl Tenancy {
    /// Views of `main`'s store.
    pub(super) fn new(main: TodoWriteService) -> Self {
        Self {
            main,
            services: Mutex::default(),
            overviews: tokio::sync::Mutex::default(),
        }
    }

    /// The whole store, as the operator's service has it.
    pub(super) fn store(&self) -> &Arc<dyn ConversationContext> {
        self.main.store()
    }

    /// The name of the profile `/mcp` serves.
    pub(super) fn main_profile(&self) -> &'static str {
        self.main.profile().name()
    }

    /// The service for `caller` and the profile called `profile` (the main
    /// one when `None`); `None` when no profile has that name.
    pub(super) fn service(&self, caller: &Caller, profile: Option<&str>) -> Option<TodoWriteService> {
        let name = profile.unwrap_or_else(|| self.main_profile());
        if caller.namespace().is_none() && name == self.main_profile() {
            return Some(self.main.clone());
        }
        let mut services = self.services.lock().unwrap_or_else(PoisonError::into_inner);
        let of_namespace = services.entry(caller.namespace().cloned()).or_default();
        if let Some(service) = of_namespace.get(name) {
            return Some(service.clone());
        }
        let profile = if name == self.main_profile() {
            self.main.profile().clone()
        } else {
            profiles::by_name(name)?
        };
        let store: Arc<dyn ConversationContext> = match caller.namespace() {
            None => Arc::clone(self.main.store()),
            // A tenant reads what failed, never where: the whole error goes
            // to the operator's log under the reference it is given.
            Some(namespace) => Arc::new(
                NamespacedStore::new(Arc::clone(self.main.store()), namespace)
                    .veiled(Arc::new(|error: &todokit::StoreError| log_veiled(error))),
            ),
        };
        let service = TodoWriteService::new(profile.clone(), store, Arc::clone(self.main.clock()))
            .with_catalog(todokit::profiles::by_name);
        of_namespace.insert(profile.name(), service.clone());
        Some(service)
    }

    /// The overview of `caller`'s conversations, started on first use.
    pub(super) async fn overview(&self, caller: &Caller) -> Arc<Overview> {
        let mut overviews = self.overviews.lock().await;
        if let Some(overview) = overviews.get(&caller.namespace().cloned()) {
            return Arc::clone(overview);
        }
        // The main profile exists, so this service does too.
        let service = self.service(caller, None).unwrap_or_else(|| self.main.clone());
        let overview = Overview::start(service).await;
        overviews.insert(caller.namespace().cloned(), Arc::clone(&overview));
        overview
    }
}

/// Writes `error` whole in the server's log under the request's id (or a
/// new reference, outside a request's own task), and returns the
/// reference: what the tenant reads instead.
pub(super) fn log_veiled(error: &dyn std::fmt::Display) -> String {
    let id = super::observe::current().map_or_else(super::observe::new_id, |id| id.to_string());
    tracing::error!(target: "todokit::store", request = %id, error = %error, "a store failure, veiled for a tenant");
    format!("request {id}")
}

/// One request's view: who it is and its service for the main profile.
#[derive(Clone)]
pub(super) struct Scope {
    pub(super) caller: Caller,
    pub(super) service: TodoWriteService,
    /// Whether this caller may edit lists by hand.
    pub(super) can_edit: bool,
}
