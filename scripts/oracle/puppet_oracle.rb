# Asks the real Puppet (the installed puppet-agent library, 7.23 on Debian 12) type-system
# and evaluation questions: the oracle behind the golden tables in tests/golden/types/
# (scripts/oracle/gen_types_golden.py) and `pupcheck types --batch`'s format. One JSON
# object a line, from the files given or stdin; blank lines and lines starting with //
# are skipped. Each case is answered on one line of stdout: the input's fields, then
#   {"expr": "<puppet code>"}           value (Puppet's %p form: 'Worl', [3]), string
#                                       (String(x, '%s'): 1.5, not String(x)'s 1.500000),
#                                       type (type(x)), generalized (type(x, 'generalized'))
#   {"value": "<expr>", "type": "<T>"}  instance: value =~ T
#   {"a": "<type>", "b": "<type>"}      a_accepts_b, b_accepts_a, common (the common type),
#                                       a_norm, b_norm (normalized)
#   any failure                         error (Puppet's message without the "Evaluation
#                                       Error: " prefix, the positions and the node) and
#                                       error_kind: evaluation, parse, or the Ruby class
# An expr case that also has value or type fields answers result_value/result_type.
# Optional fields: prelude (Puppet code evaluated first in the same scope, such as
# "type Tree = Array[Variant[Integer, Tree]]" or "class c($x = 1) {} include c") and
# timeout (seconds, default 20). What the case logs (notice(), warnings, deprecations)
# comes back in logs. Every case gets a new catalog compiler (PAL, no facts: Facter never
# runs), so no variable outlives its case; a case that defines something (type alias,
# class, define, function, plan, node) also gets an environment of its own. Strictness is
# `puppet apply`'s (strict=warning, strict_variables=false) unless the flags say otherwise.
#
#   ruby scripts/oracle/puppet_oracle.rb [--strict=error|warning|off] [--strict-variables]
#                                        [--time] [CASES.jsonl ...] < CASES.jsonl
#   echo '{"id":1,"expr":"\"Hello World\"[6,-2]"}' | ruby scripts/oracle/puppet_oracle.rb
#   => {"id":1,"expr":"\"Hello World\"[6,-2]","value":"'Worl'","string":"Worl","type":"String","generalized":"String"}
# --time adds the milliseconds each case took (ms).
require_relative '../puppet/isolated_puppet'
require 'json'
require 'tmpdir'
require 'timeout'

strict = :warning
strict_variables = false
timing = false
files = []
ARGV.each do |arg|
  case arg
  when /\A--strict=(error|warning|off)\z/ then strict = Regexp.last_match(1).to_sym
  when '--strict-variables' then strict_variables = true
  when '--time' then timing = true
  when /\A--/
    warn "puppet_oracle.rb: unknown option #{arg}"
    warn 'usage: ruby scripts/oracle/puppet_oracle.rb [--strict=error|warning|off] [--strict-variables] [--time] [FILE.jsonl ...]'
    exit 2
  else files << arg
  end
end

work = isolated_puppet('pupcheck-oracle')
at_exit { FileUtils.remove_entry(work) }

# The log messages of the case being answered (nil between cases: Puppet logs every
# failure once more after the compiler gave up, and that is the error, not a log).
$oracle_logs = nil
Puppet::Util::Log.newdesttype :pupcheck_oracle do
  def handle(msg)
    $oracle_logs << "#{msg.level}: #{msg.message}".gsub("\n", ' | ') if $oracle_logs
  end
end
Puppet::Util::Log.newdestination(:pupcheck_oracle)

ENV_NAME = 'oracle'.freeze
# Code that defines something the environment would keep for later cases.
DEFINES = /(?:\A|[^\w$:])(?:type\s+[A-Z]|class\s+[\w:]|define\s|function\s|plan\s|node\s)/.freeze
# Where Puppet says a position: " (file: f, line: 1, column: 2)", " (line: 1)", ...
POSITION = / ?\((?:file: [^()]*?, )?line: \d+(?:, column: \d+)?\)| ?\(file: [^()]*?\)/.freeze
NODE_SUFFIX = / on node #{Regexp.escape(Puppet[:node_name_value])}\z/.freeze

class CaseError < Puppet::Error; end

def converter
  Puppet::Pops::Types::StringConverter.singleton
end

# value in Puppet's notation (format '%p'), or what Puppet can say of it: '%p' shows a
# Timespan, Timestamp or Sensitive as a Ruby object; the top-level value says
# Timespan('0-00:01:00.0') and Sensitive [value redacted] instead (inside an array or a
# hash Puppet's form stands, Ruby object and all).
def puppet_form(value)
  case value
  when Puppet::Pops::Time::Timespan then "Timespan('#{text(value, '%s')}')"
  when Puppet::Pops::Time::Timestamp then "Timestamp('#{text(value, '%s')}')"
  else
    shown = text(value, '%p')
    shown.start_with?('#<') ? text(value, '%s') : shown
  end
end

# value converted with a Puppet format ('%s': as "${value}" interpolates it), as UTF-8:
# the answers leave as JSON strings.
def text(value, format)
  shown = converter.convert(value, format)
  shown.encoding == Encoding::UTF_8 ? shown : shown.encode(Encoding::UTF_8)
rescue StandardError => e
  "<unconvertible #{value.class}: #{e.message}>"
end

def describe(value)
  "#{puppet_form(value)} (#{Puppet::Pops::Types::TypeCalculator.infer_set(value)})"
end

def evaluate_type(compiler, kase, field)
  type = compiler.evaluate_string(kase[field])
  unless type.is_a?(Puppet::Pops::Types::PAnyType)
    raise CaseError, "#{field} did not evaluate to a Type, got #{describe(type)}"
  end
  type
end

def evaluate_code(compiler, code)
  raise CaseError, 'empty code' unless code.is_a?(String)
  compiler.evaluate_string(code)
end

# The answer fields of one case, computed inside its compiler.
def answer(compiler, kase)
  prelude = kase['prelude']
  compiler.evaluate_string(prelude) if prelude.is_a?(String) && !prelude.empty?
  if kase.key?('expr')
    value = evaluate_code(compiler, kase['expr'])
    calc = Puppet::Pops::Types::TypeCalculator
    # An expr case that also asks about a value or type keeps those fields.
    value_key = kase.key?('value') ? 'result_value' : 'value'
    type_key = kase.key?('type') ? 'result_type' : 'type'
    { value_key => puppet_form(value),
      'string' => text(value, '%s'),
      type_key => calc.infer_set(value).to_s,
      'generalized' => calc.infer(value).generalize.to_s }
  elsif kase.key?('value') && kase.key?('type')
    value = evaluate_code(compiler, kase['value'])
    type = evaluate_type(compiler, kase, 'type')
    # What the =~ operator does when its right side is a type.
    { 'instance' => !!type.instance?(value) }
  elsif kase.key?('a') && kase.key?('b')
    a = evaluate_type(compiler, kase, 'a')
    b = evaluate_type(compiler, kase, 'b')
    { 'a_accepts_b' => a.assignable?(b),
      'b_accepts_a' => b.assignable?(a),
      'common' => Puppet::Pops::Types::TypeCalculator.singleton.common_type(a, b).to_s,
      'a_norm' => a.normalize.to_s,
      'b_norm' => b.normalize.to_s }
  else
    raise CaseError, 'case must have "expr", or "value"+"type", or "a"+"b"'
  end
end

# Puppet's message without prefix, positions and node; and what kind of failure it is.
def failure(e)
  kind = e.class.name
  text = e.message
  if e.is_a?(Puppet::ParseErrorWithIssue)
    text = e.basic_message || text
    kind = 'parse'
    if text.start_with?('Evaluation Error: ')
      text = text.delete_prefix('Evaluation Error: ')
      kind = 'evaluation'
    end
  end
  text = text.to_s.sub(NODE_SUFFIX, '').gsub(POSITION, '').gsub("\n", ' | ').strip
  text = text.scrub unless text.valid_encoding?
  { 'error' => text, 'error_kind' => kind }
end

def in_environment(&block)
  Puppet::Pal.in_tmp_environment(ENV_NAME, modulepath: [], facts: {}, &block)
end

# Answers one case with a new catalog compiler of pal's environment: [answers, logs].
def run_case(pal, kase, strict, strict_variables)
  logs = []
  answers = Timeout.timeout(kase.fetch('timeout', 20)) do
    pal.with_catalog_compiler do |compiler|
      # PAL compiles as strictly as Puppet 8 would; puppet apply does not.
      Puppet[:strict] = strict
      Puppet[:strict_variables] = strict_variables
      $oracle_logs = logs
      begin
        answer(compiler, kase)
      ensure
        $oracle_logs = nil
      end
    end
  end
  [answers, logs]
rescue Exception => e # rubocop:disable Lint/RescueException
  raise if e.is_a?(Interrupt) || e.is_a?(SignalException) || e.is_a?(SystemExit)
  [failure(e), logs]
end

def defines?(kase)
  kase.values_at('prelude', 'expr', 'value', 'type', 'a', 'b').any? { |c| c.is_a?(String) && c.match?(DEFINES) }
end

# The cases of the files (stdin when none): each case, or for a line that is not one, the
# answer saying so.
def cases(files)
  number = 0
  (files.empty? ? [$stdin] : files.map { |f| File.open(f) }).each do |io|
    io.each_line do |line|
      number += 1
      next if line.strip.empty? || line.lstrip.start_with?('//')
      begin
        kase = JSON.parse(line.strip)
        problem = 'not an object' unless kase.is_a?(Hash)
      rescue JSON::ParserError => e
        problem = e.message
      end
      yield kase, problem && { 'line' => number, 'error' => "bad JSON input: #{problem}", 'error_kind' => 'input' }
    end
  end
end

# One answer line; strings that are not UTF-8 (bytes Puppet gave back) are scrubbed.
def output(out)
  JSON.generate(out)
rescue JSON::GeneratorError, EncodingError
  scrub = lambda do |v|
    case v
    when String then v.dup.force_encoding(Encoding::UTF_8).scrub
    when Array then v.map(&scrub)
    when Hash then v.to_h { |k, x| [scrub.call(k), scrub.call(x)] }
    else v
    end
  end
  JSON.generate(scrub.call(out))
end

$stdout.sync = true
# Cases that define nothing share one environment (each still has its own compiler and
# so its own variables); the others get one each.
in_environment do |shared|
  cases(files) do |kase, bad_input|
    next puts(output(bad_input)) if bad_input

    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    answers, logs =
      if defines?(kase)
        in_environment { |own| run_case(own, kase, strict, strict_variables) }
      else
        run_case(shared, kase, strict, strict_variables)
      end
    out = kase.merge(answers)
    out['logs'] = logs unless logs.empty?
    out['ms'] = ((Process.clock_gettime(Process::CLOCK_MONOTONIC) - started) * 1000).round(1) if timing
    puts output(out)
  end
end
