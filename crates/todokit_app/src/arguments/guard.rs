//! The fast path of the decoding layer: argument text decoded straight into
//! the tool's typed input, with the compiled schema checked on the way, so
//! a well-formed call builds no `serde_json::Value` tree at all.
//!
//! The guard is deliberately conservative. It accepts a value only where
//! the repair pass would leave it as it is and the check pass would find
//! nothing; anything else (an unknown or case-variant key, a duplicate key,
//! an enum spelling that needs an alias, an integer where an id string is
//! expected, a `Value` where a typed decode would read an array as a
//! struct, an `anyOf` the slow path might resolve differently) makes the
//! fast path give up, and the repairing path runs instead, with its
//! messages. So the fast path never changes what a call does, only what it
//! costs; `tests::fast_and_repairing_paths_agree` holds it to that.

use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::CompiledSchema;
use super::compiled::Node;

/// `text` decoded into `T` when it is well formed for `schema`: valid JSON,
/// an object the repair pass would not touch and the check pass would
/// accept. `None` sends the call down the repairing path.
pub fn decode_well_formed<T: DeserializeOwned>(text: &str, schema: &CompiledSchema) -> Option<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let guarded = Guarded {
        de: &mut de,
        node: &schema.root,
        id: false,
    };
    let value = T::deserialize(guarded).ok()?;
    de.end().ok()?;
    Some(value)
}

/// A schema node with no constraints: what the check pass reads for an
/// array without `items`.
static ANY: Node = Node {
    types: Vec::new(),
    kinds: 0,
    enumeration: None,
    aliases: None,
    is_id: false,
    any_of: Vec::new(),
    properties: None,
    required: Vec::new(),
    required_mask: Some(0),
    closed: false,
    items: None,
    min_items: None,
    min_length: None,
};

/// The JSON kinds, in the order of the schema type names (`TYPE_NAMES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    /// Its bit in [`Node::kinds`] (the order of `TYPE_NAMES`).
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// Why the guard gave up; never shown (the repairing path reports instead).
fn give_up<E: de::Error>() -> E {
    E::custom("not well formed; the repairing path decides")
}

/// The node a value of `kind` is checked against, as the repair pass would
/// pick it, or `None` when the value breaks the node's type or is one the
/// repair pass would change.
fn resolve(node: &Node, kind: Kind, id: bool) -> Option<&Node> {
    if !node.any_of.is_empty() {
        if kind == Kind::Null {
            return node.any_of.iter().find_map(|branch| resolve(branch, kind, id));
        }
        // The branch the repair pass follows for a value that is not null.
        let branch = node.any_of.iter().find(|b| b.types != ["null"])?;
        return resolve(branch, kind, id);
    }
    let typed = node.kinds == 0
        || node.kinds & kind.bit() != 0
        || (kind == Kind::Integer && node.kinds & Kind::Number.bit() != 0);
    // An integer where an id may be a string is rewritten by the repair pass.
    let numeric_id = kind == Kind::Integer && (id || node.is_id) && node.kinds & Kind::String.bit() != 0;
    (typed && !numeric_id).then_some(node)
}

/// Checks a scalar that is not a string against `node`.
fn check_scalar<E: de::Error>(
    node: &Node,
    kind: Kind,
    id: bool,
    value: impl FnOnce() -> Value,
) -> Result<(), E> {
    let node = resolve(node, kind, id).ok_or_else(give_up)?;
    match &node.enumeration {
        Some(allowed) if !allowed.contains(&value()) => Err(give_up()),
        _ => Ok(()),
    }
}

/// Checks a string against `node`: its type, its enum, its least length.
fn check_str<E: de::Error>(node: &Node, id: bool, text: &str) -> Result<(), E> {
    let node = resolve(node, Kind::String, id).ok_or_else(give_up)?;
    if let Some(allowed) = &node.enumeration
        && !allowed.iter().any(|v| v.as_str() == Some(text))
    {
        return Err(give_up());
    }
    // A character takes at most four bytes: long enough text needs no count.
    match node.min_length {
        Some(min) if (text.len() as u64) < min.saturating_mul(4) && (text.chars().count() as u64) < min => {
            Err(give_up())
        }
        _ => Ok(()),
    }
}

/// A deserializer that checks what it reads against a schema node.
struct Guarded<'s, D> {
    de: D,
    node: &'s Node,
    /// Inside a list of ids (`x-id` on the array).
    id: bool,
}

impl<'s, D> Guarded<'s, D> {
    fn split<V>(self, visitor: V) -> (D, Guard<'s, V>) {
        let guard = Guard {
            visitor,
            node: self.node,
            id: self.id,
        };
        (self.de, guard)
    }
}

/// Forwards `deserialize_*` methods to the inner deserializer with the
/// visitor wrapped by the type's `split`.
macro_rules! forward_wrapped {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
            let (de, wrapped) = self.split(visitor);
            de.$method($($arg,)* wrapped)
        }
    )*};
}

macro_rules! forward_all_but_enum {
    () => {
        forward_wrapped! {
            deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16();
            deserialize_i32(); deserialize_i64(); deserialize_i128(); deserialize_u8();
            deserialize_u16(); deserialize_u32(); deserialize_u64(); deserialize_u128();
            deserialize_f32(); deserialize_f64(); deserialize_char(); deserialize_str();
            deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
            deserialize_option(); deserialize_unit(); deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str); deserialize_seq();
            deserialize_tuple(len: usize); deserialize_tuple_struct(name: &'static str, len: usize);
            deserialize_map(); deserialize_struct(name: &'static str, fields: &'static [&'static str]);
            deserialize_identifier(); deserialize_ignored_any();
        }
    };
}

impl<'de, 's, D: Deserializer<'de>> Deserializer<'de> for Guarded<'s, D> {
    type Error = D::Error;

    forward_all_but_enum!();

    /// Enums of the tools' inputs are strings; serde_json would also read
    /// `{"variant": ...}`, which the schema does not allow, so only a
    /// string is read, checked, and handed over as the variant.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let (de, guard) = self.split(visitor);
        de.deserialize_str(EnumFromStr(guard))
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// A visitor that checks each value against the node before passing it on.
struct Guard<'s, V> {
    visitor: V,
    node: &'s Node,
    id: bool,
}

impl<'de, 's, V: Visitor<'de>> Visitor<'de> for Guard<'s, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        check_scalar(self.node, Kind::Boolean, self.id, || Value::Bool(v))?;
        self.visitor.visit_bool(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        check_scalar(self.node, Kind::Integer, self.id, || Value::from(v))?;
        self.visitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        check_scalar(self.node, Kind::Integer, self.id, || Value::from(v))?;
        self.visitor.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        check_scalar(self.node, Kind::Number, self.id, || Value::from(v))?;
        self.visitor.visit_f64(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        check_str(self.node, self.id, v)?;
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        check_str(self.node, self.id, v)?;
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        check_str(self.node, self.id, &v)?;
        self.visitor.visit_string(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        check_scalar(self.node, Kind::Null, self.id, || Value::Null)?;
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        check_scalar(self.node, Kind::Null, self.id, || Value::Null)?;
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let guarded = Guarded {
            de,
            node: self.node,
            id: self.id,
        };
        self.visitor.visit_some(guarded)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let guarded = Guarded {
            de,
            node: self.node,
            id: self.id,
        };
        self.visitor.visit_newtype_struct(guarded)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let node = resolve(self.node, Kind::Array, self.id).ok_or_else(give_up)?;
        if node.enumeration.is_some() {
            return Err(give_up());
        }
        let mut guarded = GuardedSeq {
            seq,
            items: node.items.as_deref().unwrap_or(&ANY),
            id: self.id || node.is_id,
            count: 0,
        };
        let value = self.visitor.visit_seq(&mut guarded)?;
        match node.min_items {
            Some(min) if guarded.count < min => Err(give_up()),
            _ => Ok(value),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let node = resolve(self.node, Kind::Object, self.id).ok_or_else(give_up)?;
        if node.enumeration.is_some() {
            return Err(give_up());
        }
        let Some(properties) = &node.properties else {
            // The repair and check passes leave an object without listed
            // properties alone, unless it is closed or requires keys.
            return match node.closed || !node.required.is_empty() {
                true => Err(give_up()),
                false => self.visitor.visit_map(map),
            };
        };
        let required = node.required_mask.ok_or_else(give_up)?;
        let mut guarded = GuardedMap {
            map,
            properties,
            seen: 0,
            current: None,
        };
        let value = self.visitor.visit_map(&mut guarded)?;
        match required & !guarded.seen {
            0 => Ok(value),
            _ => Err(give_up()),
        }
    }
}

/// Reads an enum from a string only, checked against the node.
struct EnumFromStr<'s, V>(Guard<'s, V>);

impl<'de, 's, V: Visitor<'de>> Visitor<'de> for EnumFromStr<'s, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.visitor.expecting(f)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        check_str(self.0.node, self.0.id, v)?;
        self.0.visitor.visit_enum(BorrowedStrDeserializer::new(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        check_str(self.0.node, self.0.id, v)?;
        self.0.visitor.visit_enum(StrDeserializer::new(v))
    }
}

/// The elements of an array, each checked against the `items` node.
struct GuardedSeq<'s, A> {
    seq: A,
    items: &'s Node,
    id: bool,
    count: u64,
}

impl<'de, 's, A: SeqAccess<'de>> SeqAccess<'de> for GuardedSeq<'s, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        let seed = GuardedSeed {
            seed,
            node: self.items,
            id: self.id,
        };
        let element = self.seq.next_element_seed(seed)?;
        self.count += u64::from(element.is_some());
        Ok(element)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// The entries of an object: every key a listed property, none twice, each
/// value checked against its property's node.
struct GuardedMap<'s, A> {
    map: A,
    properties: &'s [(String, Node)],
    /// Bit `i` set: property `i` was read.
    seen: u64,
    /// The property whose value comes next.
    current: Option<usize>,
}

impl<'de, 's, A: MapAccess<'de>> MapAccess<'de> for GuardedMap<'s, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let mut index = None;
        let seed = KeySeed {
            seed,
            properties: self.properties,
            index: &mut index,
        };
        let Some(key) = self.map.next_key_seed(seed)? else {
            return Ok(None);
        };
        // Unknown keys may be renamed or refused by the slow path, a
        // repeated key is resolved differently by a typed decode.
        let bit = index.filter(|i| *i < 64).map(|i| 1u64 << i).ok_or_else(give_up)?;
        if self.seen & bit != 0 {
            return Err(give_up());
        }
        self.seen |= bit;
        self.current = index;
        Ok(Some(key))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let index = self.current.take().ok_or_else(give_up)?;
        let node = self
            .properties
            .get(index)
            .map(|(_, node)| node)
            .ok_or_else(give_up)?;
        self.map.next_value_seed(GuardedSeed {
            seed,
            node,
            id: false,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A seed whose value is read through a [`Guarded`] deserializer.
struct GuardedSeed<'s, T> {
    seed: T,
    node: &'s Node,
    id: bool,
}

impl<'de, 's, T: DeserializeSeed<'de>> DeserializeSeed<'de> for GuardedSeed<'s, T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<T::Value, D::Error> {
        self.seed.deserialize(Guarded {
            de,
            node: self.node,
            id: self.id,
        })
    }
}

/// A key seed that notes which listed property the key names.
struct KeySeed<'a, 's, K> {
    seed: K,
    properties: &'s [(String, Node)],
    index: &'a mut Option<usize>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, '_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(KeyDeserializer {
            de,
            properties: self.properties,
            index: self.index,
        })
    }
}

struct KeyDeserializer<'a, 's, D> {
    de: D,
    properties: &'s [(String, Node)],
    index: &'a mut Option<usize>,
}

impl<'a, 's, D> KeyDeserializer<'a, 's, D> {
    fn split<V>(self, visitor: V) -> (D, KeyVisitor<'a, 's, V>) {
        let visitor = KeyVisitor {
            visitor,
            properties: self.properties,
            index: self.index,
        };
        (self.de, visitor)
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDeserializer<'_, '_, D> {
    type Error = D::Error;

    forward_all_but_enum!();
    forward_wrapped! { deserialize_enum(name: &'static str, variants: &'static [&'static str]); }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// Records the index of the property a key names. Keys come as strings;
/// anything else is left to the visitor's default, which refuses it.
struct KeyVisitor<'a, 's, V> {
    visitor: V,
    properties: &'s [(String, Node)],
    index: &'a mut Option<usize>,
}

impl<V> KeyVisitor<'_, '_, V> {
    fn note(&mut self, key: &str) {
        *self.index = self.properties.iter().position(|(k, _)| k == key);
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<V::Value, E> {
        self.note(v);
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<V::Value, E> {
        self.note(v);
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(mut self, v: String) -> Result<V::Value, E> {
        self.note(&v);
        self.visitor.visit_string(v)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn kind_bits_follow_the_schema_type_names() {
        use super::Kind;
        use pretty_assertions::assert_eq;
        let kinds = [
            Kind::Null,
            Kind::Boolean,
            Kind::Integer,
            Kind::Number,
            Kind::String,
            Kind::Array,
            Kind::Object,
        ];
        let actual: Vec<&str> = kinds
            .iter()
            .map(|k| super::super::compiled::TYPE_NAMES[*k as usize])
            .collect();
        let expected = vec![
            "null", "boolean", "integer", "number", "string", "array", "object",
        ];
        assert_eq!(actual, expected);
    }
}
