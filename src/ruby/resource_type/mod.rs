//! A module's resource types written in Ruby (`lib/puppet/type/<name>.rb`), read as a
//! syntax tree, never run: the classic `Puppet::Type.newtype` (`classic`) and the
//! Resource API's `register_type` (`resource_api`). A type the readers are not sure of
//! is unknown, never guessed. `tests/ruby_types.rs` compares what they read with what
//! Puppet itself loads for every type of the corpus.

mod classic;
mod resource_api;

use super::skim::SkimTree;
use super::tree::RubyTree;
use crate::builtin::resource_type::ResourceType;

/// The largest type file read (a syntax tree takes many times its text's memory, and a
/// hostile file nests deeply): three times the largest of the corpus and of current
/// public modules (puppetlabs-firewall's, 77 KB). A larger one is unknown.
pub const RUBY_TYPE_LIMIT: u64 = 256 * 1024;

/// Reads the type `name` from the text of its file; `None` when the reader is not
/// sure of it.
///
/// Most classic type files are skimmed (`skim`) in a tenth of tree-sitter's time;
/// where the skimmer is unsure of the file, tree-sitter's tree decides.
pub fn read_type(text: &str, name: &str) -> Option<ResourceType> {
    if memchr::memmem::find(text.as_bytes(), b"ResourceApi").is_some() {
        return resource_api::read(&RubyTree::parse(text)?, name);
    }
    read_skimmed(text, name).unwrap_or_else(|| read_parsed(text, name))
}

/// A classic type read by the skimmer alone: `None` where it is unsure of the file,
/// else what the classic reader makes of it (a type, or unknown).
pub fn read_skimmed(text: &str, name: &str) -> Option<Option<ResourceType>> {
    Some(classic::read(
        &SkimTree::parse(text, &classic::reads_calls_of)?,
        name,
    ))
}

/// A classic type read from tree-sitter's tree alone.
pub fn read_parsed(text: &str, name: &str) -> Option<ResourceType> {
    classic::read(&RubyTree::parse(text)?, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_read_from_newparam_newproperty_and_ensurable() {
        let text = "require 'puppet/parameter/boolean'\n\
            Puppet::Type.newtype(:ini_line) do\n  @doc = <<-EOT\n    newparam(:in_doc)\n  EOT\n\
            ensurable\n  # newparam(:commented)\n\
            newparam(:name, namevar: true) do\n    desc 'x'\n  end\n\
            newproperty(:value, array_matching: :all)\n  newparam :path do\n  end\n\
            autorequire(:file) { [self[:path]] }\n  def refresh; end\nend\n";
        let t = read_type(text, "ini_line").expect("read");
        assert_eq!(t.attributes, ["ensure", "name", "path", "value"]);
        assert!(t.accepts_attribute("provider") && t.accepts_attribute("require"));
        assert!(!t.accepts_attribute("valeu"));
    }

    #[test]
    fn closed_value_lists_are_read_with_their_aliases() {
        let text = "Puppet::Type.newtype(:t) do\n\
            newparam(:name)\n\
            newproperty(:mode) do\n    newvalues(:fast, 'slow')\n    newvalue(:off) do\n      x\n    end\n    aliasvalue(:none, :off)\n  end\n\
            newparam(:pattern) do\n    newvalues(:a, /b/)\n  end\n\
            newparam(:checked) do\n    newvalues(:a)\n    validate do |v|\n    end\n  end\n\
            newparam(:flag, boolean: true, parent: Puppet::Parameter::Boolean)\n\
            newparam(:count) do\n    newvalues(1, 2)\n  end\nend\n";
        let t = read_type(text, "t").expect("read");
        assert_eq!(t.values.len(), 1, "{:?}", t.values);
        assert_eq!(t.values["mode"], ["fast", "slow", "off"]);
        assert_eq!(t.aliases["mode"], ["none"]);
        assert_eq!(t.accepts_value("mode", "none"), Some(true));
        assert_eq!(t.accepts_value("mode", "on"), Some(false));
        assert_eq!(t.accepts_value("pattern", "on"), None);
    }

    #[test]
    fn an_ensurable_block_keeps_the_default_values_it_asks_for() {
        let text = "Puppet::Type.newtype(:t) do\n  ensurable do\n    defaultvalues\n    newvalue(:unset) do\n    end\n  end\n  newparam(:name)\n\
            newparam(:mode) do\n    newvalues(:a)\n    PuppetX::T.more_values(self)\n  end\nend\n";
        let t = read_type(text, "t").expect("read");
        assert_eq!(t.values["ensure"], ["present", "absent", "unset"]);
        assert!(!t.values.contains_key("mode"), "a helper may add values");
    }

    #[test]
    fn the_shapes_of_puppets_own_bundled_types_are_read() {
        // mailalias_core's and sshkey_core's wrapper, mount_core's option, cron_core's
        // helper class, augeas_core's include, a literal send and a local proc.
        let text = "require 'puppet/property/boolean'\nmodule Puppet\n  Type.newtype(:t, self_refresh: true) do\n\
            include Puppet::Util\n    class TParam < Puppet::Property\n      def x; end\n    end\n\
            munge_it = proc do |v| v end\n    alias_method :title, :name\n\
            newparam(:name)\n    newproperty(:mode, parent: TParam) do\n      munge(&munge_it)\n      \
            def insync?(is)\n        @resource.send(:properties)\n      end\n    end\n  end\nend\n";
        let t = read_type(text, "t").expect("read");
        assert_eq!(t.attributes, ["mode", "name"]);
        // inifile's Ruby library by path, augeasproviders_sysctl's helper module,
        // firewalld_zone's loading of other types.
        let text = "require 'digest/md5'\nPuppet::Type.newtype(:t) do\n  module ValueSync\n    def insync?(is); end\n  end\n\
            Puppet::Type.type(:other)\n  newparam(:name)\nend\n";
        assert_eq!(read_type(text, "t").expect("read").attributes, ["name"]);
        for unsure in [
            "Type.newtype(:t) do\n  newparam(:name)\nend\n",
            "module Puppet\n  Type.newtype(:t, parent: File) do\n  end\nend\n",
            "Puppet::Type.newtype(:t) do\n  newparam(:name)\n  send(:newparam, :more)\nend\n",
            "Puppet::Type.newtype(:t) do\n  include Helpers\nend\n",
        ] {
            assert_eq!(read_type(unsure, "t"), None, "{unsure}");
        }
    }

    #[test]
    fn what_the_reader_does_not_follow_makes_the_type_unknown() {
        let base = "Puppet::Type.newtype(:t) do\n  newparam(:name)\n";
        for extra in [
            "  [:a, :b].each { |p| newparam(p) }\n",
            "  require_relative '../../puppet_x/t/params'\n",
            "  PuppetX::T.add_params(self)\n",
            "  require File.expand_path('../helpers', __FILE__)\n",
            "  newparam(name_of_it)\n",
            "  include Something\n",
        ] {
            assert_eq!(
                read_type(&format!("{base}{extra}end\n"), "t"),
                None,
                "{extra}"
            );
        }
        for whole in [
            "Puppet::Type.newtype(:t, parent: Puppet::Type::File) do\nend\n",
            "Puppet::Type.newtype(:other) do\nend\n",
            "Puppet::Type.newtype(:t) do\nend\nPuppet::Type.type(:t).newparam(:more)\n",
            "Puppet::Type.newtype(:t) do\n  newparam(:x\nend\n",
        ] {
            assert_eq!(read_type(whole, "t"), None, "{whole}");
        }
        // Values listed where the reader does not look: none judged, attributes kept.
        let text = "Puppet::Type.newtype(:t) do\n  newparam(:a) do\n    if x\n      newvalues(:b)\n    end\n    newvalues(:c)\n  end\nend\n";
        let t = read_type(text, "t").expect("read");
        assert_eq!(
            (t.attributes.as_slice(), t.values.len()),
            (&["a".to_string()][..], 0)
        );
    }

    #[test]
    fn resource_api_types_are_read_with_their_attribute_types() {
        let text = "require 'puppet/resource_api'\n\
            Puppet::ResourceApi.register_type(\n  name: 'login',\n  docs: <<-DOC,\n  Text\n  DOC\n\
            attributes: {\n    ensure: { type: 'Enum[present, absent]', desc: 'x' },\n\
            name: { type: 'String', behaviour: :namevar },\n\
            'port' => { type: \"Optional[Integer[0,65535]]\" },\n\
            :stamp => { type: 'String', behaviour: :read_only },\n\
            extra: { type: TYPE },\n  },\n)\n";
        let t = read_type(text, "login").expect("read");
        assert_eq!(t.attributes, ["ensure", "extra", "name", "port", "stamp"]);
        assert_eq!(t.types["port"], "Optional[Integer[0,65535]]");
        assert!(!t.types.contains_key("stamp") && !t.types.contains_key("extra"));
        assert!(!t.accepts_attribute("provider"));
        assert_eq!(read_type(text, "other"), None);
    }
}
