# What each of Puppet's built-in functions returns, where Puppet does not declare it.
# Puppet 7 declares a `return_type` for only a dozen of its functions (the logging
# functions, epp, group_by, partition); every other result type here is read from the
# function's Ruby source (lib/puppet/functions/NAME.rb, lib/puppet/parser/functions/
# NAME.rb) and proven by example: scripts/puppet/functions.rb evaluates every example
# call with Puppet and stops when a result is not an instance of its type, when a
# function has an entry of the wrong shape, or when Puppet itself declares the type.
#
# An entry is either `[TYPE, EXAMPLE...]`, the type of every dispatch, or a list of
# those, one per dispatch in the order Puppet tries them. A type must hold every value
# the dispatch can return (`Any` when the function returns whatever its arguments or
# its lambda give, or never returns); a narrower one would make pupcheck report a call
# Puppet accepts. The examples are Puppet expressions, evaluated in a catalog compile
# with the module `pupcheck_results` (its files: see functions.rb) on the modulepath.
FUNCTION_RESULTS = {
  'abs' => ['Numeric', 'abs(-3)', 'abs(-2.5)', "abs('-3')", "abs('-2.5')"],
  'all' => ['Boolean', '[1, 2].all |$x| { $x > 0 }', '{ a => 1 }.all |$k, $v| { $v > 1 }'],
  'annotate' => ['Any'],
  'any' => ['Boolean', '[1, 2].any |$x| { $x > 1 }', '{ a => 1 }.any |$k, $v| { $v > 1 }'],
  'assert_type' => ['Any'],
  'binary_file' => ['Binary', "binary_file('pupcheck_results/data.txt')"],
  'break' => ['Any'],
  'call' => ['Any'],
  'camelcase' => [['Numeric', 'camelcase(1)'], ['String', "camelcase('a_b')"],
                  ['Array[Variant[String, Numeric]]', "camelcase(['a_b'])", 'camelcase([1])']],
  'capitalize' => [['Numeric', 'capitalize(1.5)'], ['String', "capitalize('ab')"],
                   ['Array[Variant[String, Numeric]]', "capitalize(['ab'])", 'capitalize([2])']],
  'ceiling' => ['Integer', 'ceiling(2.1)', 'ceiling(3)', "ceiling('2.5')"],
  'chomp' => [['Numeric', 'chomp(1)'], ['String', "chomp(\"a\\n\")"],
              ['Array[Variant[String, Numeric]]', "chomp([\"a\\n\"])"]],
  'chop' => [['Numeric', 'chop(1)'], ['String', "chop('ab')"],
             ['Array[Variant[String, Numeric]]', "chop(['ab'])"]],
  'compare' => ['Integer', 'compare(1, 2)', "compare('a', 'B', true)", "compare(SemVer('1.0.0'), SemVer('2.0.0'))"],
  'contain' => ['Array[Type[Class]]', 'contain(pupcheck_results)', "contain('pupcheck_results', 'pupcheck_results::other')"],
  'convert_to' => ['Any'],
  'create_resources' => ['Undef', "create_resources('notify', { 'a' => {} })"],
  'defined' => ['Boolean', "defined('$facts')", "defined(Class['nope'])"],
  'dig' => ['Any'],
  'digest' => ['String', "digest('x')"],
  'downcase' => [['Numeric', 'downcase(1)'], ['String', "downcase('AB')"], ['Array', "downcase(['AB', ['C']])"],
                 ['Hash', "downcase({ 'A' => 'B' })"]],
  'each' => [['Hash', '{ a => 1 }.each |$pair| { }'], ['Hash', '{ a => 1 }.each |$k, $v| { }'],
             ['Iterable', '[1].each |$i, $x| { }', '3.each |$i, $x| { }'], ['Iterable', '[1].each |$x| { }', "'ab'.each |$x| { }"]],
  'empty' => ['Boolean', 'empty([])', "empty(Sensitive('x'))", "empty('')", 'empty(0)', 'empty(undef)'],
  'fail' => ['Any'],
  'file' => ['String', "file('pupcheck_results/data.txt')"],
  'filter' => [['Hash', '{ a => 1 }.filter |$pair| { true }'], ['Hash', '{ a => 1 }.filter |$k, $v| { true }'],
               ['Array', '[1, 2].filter |$i, $x| { $i > 0 }'], ['Array', '[1, 2].filter |$x| { $x > 1 }', '3.filter |$x| { true }']],
  'find_file' => ['Optional[String]', "find_file('pupcheck_results/data.txt')", "find_file(['nope/x', 'nope/y'])"],
  'find_template' => ['Optional[String]', "find_template('pupcheck_results/t.erb')", "find_template(['nope/x'])"],
  'flatten' => ['Array', 'flatten(1)', 'flatten([1, [2]], 3)'],
  'floor' => ['Integer', 'floor(2.5)', 'floor(3)', "floor('2.5')"],
  'fqdn_rand' => ['Integer', 'fqdn_rand(30)', "fqdn_rand(30, 'seed')"],
  'generate' => ['String', "generate('/bin/echo', 'x')"],
  'get' => ['Any'],
  'getvar' => ['Any'],
  'hiera' => ['Any'],
  'hiera_array' => ['Any'],
  'hiera_hash' => ['Any'],
  'hiera_include' => ['Any'],
  # Data providers: Hiera calls them with its lookup context, never a manifest.
  'hocon_data' => ['Hash'],
  'json_data' => ['Hash'],
  'yaml_data' => ['Hash'],
  'import' => ['Any'],
  'include' => ['Array[Type[Class]]', 'include(pupcheck_results)', 'include([pupcheck_results])'],
  # A hash's index is its key; an iterable over a hash-like object gives keys too.
  'index' => [['Any'], ['Any'], ['Any'], ['Any'],
              ['Optional[Integer]', "index('abc', 'b')", "index('abc', /x/)"],
              ['Any']],
  'inline_template' => ['String', "inline_template('<%= 1 %>')"],
  'join' => ['String', "join(['a', 1], ',')", 'join([])'],
  'keys' => ['Array', 'keys({ a => 1 })', 'keys({})'],
  'length' => ['Integer', 'length([1])', "length('ab')", "length(Binary('YQ=='))"],
  'lest' => ['Any'],
  'lookup' => ['Any'],
  'map' => [['Array', '{ a => 1 }.map |$pair| { 1 }'], ['Array', '{ a => 1 }.map |$k, $v| { $k }'],
            ['Array', '[1].map |$i, $x| { $i }'], ['Array', '[1].map |$x| { $x }', '2.map |$x| { $x }']],
  'match' => [['Optional[Array[Optional[String]]]', "match('abc', /(b)(x)?/)", "match('abc', 'x')"],
              ['Array[Optional[Array[Optional[String]]]]', "match(['abc', 'x'], /b/)"]],
  'max' => [['Numeric', 'max(1, 2.5)'], ['String', "max('a', 'b')"],
            ['Optional[Numeric]', 'max([1, 2])', 'max([]) |$a, $b| { 0 }'],
            ['Optional[String]', "max(['a', 'b'])", 'max([]) |$a, $b| { 0 }'],
            ['Any'], ['Any'], ['Any']],
  'md5' => ['String', "md5('x')"],
  'min' => [['Numeric', 'min(1, 2.5)'], ['String', "min('a', 'b')"],
            ['Optional[Numeric]', 'min([1, 2])', 'min([]) |$a, $b| { 0 }'],
            ['Optional[String]', "min(['a', 'b'])", 'min([]) |$a, $b| { 0 }'],
            ['Any'], ['Any'], ['Any']],
  'module_directory' => ['Optional[String]', "module_directory('pupcheck_results')", "module_directory(['nope'])"],
  'new' => ['Any'],
  'next' => ['Any'],
  'realize' => ['Undef', 'realize([])'],
  'reduce' => ['Any'],
  'regsubst' => ['Variant[String, Array[String]]', "regsubst('ab', 'b', 'c')", "regsubst(['ab'], /b/, 'c', 'G')"],
  'require' => ['Array[Type[Class]]', 'require(pupcheck_results)'],
  'return' => ['Any'],
  # Without a lambda an Iterator; with one, nothing.
  'reverse_each' => [['Iterable', 'reverse_each([1, 2])'], ['Undef', '[1, 2].reverse_each |$x| { }']],
  'round' => ['Integer', 'round(2.5)', 'round(3)'],
  'rstrip' => [['Numeric', 'rstrip(1)'], ['String', "rstrip('a ')"],
               ['Array[Variant[String, Numeric]]', "rstrip(['a '])"]],
  'lstrip' => [['Numeric', 'lstrip(1)'], ['String', "lstrip(' a')"],
               ['Array[Variant[String, Numeric]]', "lstrip([' a'])"]],
  'sha1' => ['String', "sha1('x')"],
  'sha256' => ['String', "sha256('x')"],
  'shellquote' => ['String', "shellquote('a b', ['c'])"],
  'size' => ['Integer', 'size([1])', "size('ab')", 'size({})'],
  # Without a lambda the slices; with one, the collection sliced.
  'slice' => [['Collection', '{ a => 1, b => 2 }.slice(1)', '{ a => 1 }.slice(1) |$x| { }'],
              ['Iterable', '[1, 2, 3].slice(2)', '[1, 2].slice(2) |$x| { }', '3.slice(2)']],
  'sort' => [['String', "sort('cba')"], ['Array', 'sort([2, 1])', 'sort([2, 1]) |$a, $b| { compare($a, $b) }']],
  'split' => ['Array[String]', "split('a,b', ',')", "split('a1b', /\\d/)", "split('ab', Regexp['b'])"],
  'sprintf' => ['String', "sprintf('%d', 1)"],
  'step' => [['Iterable', 'step([1, 2, 3], 2)'], ['Undef', '[1, 2].step(1) |$x| { }']],
  'strftime' => ['String', "strftime(Timespan(3600), '%H')", "strftime(Timestamp('2020-01-01T00:00:00Z'), '%Y', 'UTC')", "strftime('%Y')"],
  'strip' => [['Numeric', 'strip(1)'], ['String', "strip(' a ')"],
              ['Array[Variant[String, Numeric]]', "strip([' a '])", 'strip([1])']],
  'tag' => ['Undef', "tag('pupcheck')"],
  'tagged' => ['Boolean', "tagged('pupcheck')"],
  'template' => ['String', "template('pupcheck_results/t.erb')"],
  'then' => ['Any'],
  'tree_each' => ['Any'],
  'type' => ['Type', 'type(1)', "type(1, 'reduced')", "type(1, 'generalized')"],
  'unique' => [['String', "unique('aab')"], ['Hash', '{ a => 1, b => 1 }.unique'], ['Array', 'unique([1, 1])'],
               ['Array', 'unique(3)']],
  'unwrap' => ['Any'],
  'upcase' => [['Numeric', 'upcase(1)'], ['String', "upcase('ab')"], ['Array', "upcase(['ab', ['c']])"],
               ['Hash', "upcase({ 'a' => 'b' })"]],
  'values' => ['Array', 'values({ a => 1 })'],
  'versioncmp' => ['Integer', "versioncmp('1.0', '1.1')"],
  'with' => ['Any'],
}.freeze

# The entries as functions.rb uses them: each function's types, one a dispatch; the
# functions whose every dispatch has a known type; and the proof of the examples.
class Results
  def initialize
    @used = {}
    @known = {}
    @examples = [] # [function, type text, example]
  end

  # The type of each of the `count` dispatches of `name`, or nil without an entry.
  def of(name, count)
    entry = FUNCTION_RESULTS[name]
    return nil if entry.nil?
    @used[name] = true
    per_dispatch = entry.first.is_a?(Array) ? entry : [entry] * count
    unless per_dispatch.size == count
      raise "#{name}: function_results.rb gives #{per_dispatch.size} types for its #{count} dispatches"
    end
    per_dispatch.uniq.each do |type, *examples|
      examples.each { |example| @examples << [name, type, example] }
    end
    per_dispatch.map(&:first)
  end

  def known(name)
    @known[name] = true
  end

  # Evaluates every example with Puppet: each result must be of its type.
  def prove
    unused = FUNCTION_RESULTS.keys - @used.keys
    raise "function_results.rb has entries for functions Puppet lacks: #{unused.join(', ')}" unless unused.empty?
    parser = Puppet::Pops::Types::TypeParser.singleton
    Dir.mktmpdir('pupcheck-results') do |modulepath|
      fixture_module(File.join(modulepath, 'pupcheck_results'))
      Puppet::Pal.in_tmp_environment('pupcheck', modulepath: [modulepath], facts: {}) do |pal|
        pal.with_catalog_compiler do |compiler|
          failures = @examples.filter_map do |name, type, example|
            value = compiler.evaluate_string(example)
            next if parser.parse(type).instance?(value)
            "#{name}: #{example} returns #{Puppet::Pops::Types::TypeCalculator.infer_set(value)}, not a #{type}"
          rescue StandardError => e
            "#{name}: #{example} fails: #{e.message.lines.first.strip}"
          end
          raise "function_results.rb is wrong:\n#{failures.join("\n")}" unless failures.empty?
        end
      end
    end
  end

  def summary(count)
    any = @known.keys.count { |name| Array(FUNCTION_RESULTS[name]).flatten.uniq == ['Any'] }
    "#{@known.size} of them with a known result type (#{any} of these Any), #{@examples.size} example calls proven"
  end

  private

  # The module the examples read files, templates and classes of.
  def fixture_module(root)
    %w[manifests files templates].each { |d| FileUtils.mkdir_p(File.join(root, d)) }
    File.write(File.join(root, 'manifests/init.pp'), "class pupcheck_results {}\n")
    File.write(File.join(root, 'manifests/other.pp'), "class pupcheck_results::other {}\n")
    File.write(File.join(root, 'files/data.txt'), "data\n")
    File.write(File.join(root, 'templates/t.erb'), "<%= 1 %>\n")
  end
end
