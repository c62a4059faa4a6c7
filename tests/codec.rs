//! The scenario a reader wrote, handed from the later panels' module to the page's (`sim::codec`): every
//! scenario the language can write comes back as it went, named values included, and runs the same.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::sim::{self, codec, Param};
use proptest::prelude::*;

mod common;
use common::programs::any_program;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_program_comes_back_as_it_went(mut sc in any_program(), value in 0..30_000u64, off in any::<bool>()) {
        sc.params.push(Param { name: "pause_start".into(), value, min: 0, max: 30_000, off });
        sc.drag = Some(0);
        let line = codec::encode(&sc);
        let back = codec::decode(&line);
        prop_assert_eq!(back.as_ref(), Some(&sc));
        prop_assert_eq!(sim::run(&back.unwrap()), sim::run(&sc));
    }
}

#[test]
fn every_catalogue_scenario_comes_back_as_it_went() {
    for id in fencing_lab::scenarios::ScenarioId::ALL {
        let sc = id.build(&id.defaults());
        assert_eq!(codec::decode(&codec::encode(&sc)), Some(sc), "{id:?}");
    }
}
