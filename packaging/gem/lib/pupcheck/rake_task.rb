# frozen_string_literal: true

# The gem does not depend on rake (the launcher needs nothing); this file is only
# loaded from a Rakefile, where rake is there.
require 'rake'
require 'rake/tasklib'
require_relative '../pupcheck'

module Pupcheck
  # Defines a Rake task that runs `pupcheck check` and fails the Rake run when pupcheck
  # finds problems at or above its --fail-on severity (errors by default).
  #
  #   require 'pupcheck/rake_task'
  #   Pupcheck::RakeTask.new                # task `pupcheck` on the current directory
  #
  #   Pupcheck::RakeTask.new(:lint) do |t|
  #     t.paths = ['manifests', 'templates']
  #     t.fail_on = 'warning'
  #     t.format = 'github'
  #     t.options = ['--ignore', 'double-quoted-strings']
  #   end
  class RakeTask < ::Rake::TaskLib
    # The task's name (default :pupcheck).
    attr_accessor :name
    # What to check (default: nothing, which pupcheck reads as the current directory).
    attr_accessor :paths
    # Further arguments for `pupcheck check`, before the paths.
    attr_accessor :options
    # The least severity that fails the run: 'error' or 'warning' (default: pupcheck's).
    attr_accessor :fail_on
    # pupcheck's --format (default: pupcheck's, human).
    attr_accessor :format
    # Whether findings fail the Rake run (default true); false only prints them.
    attr_accessor :fail_on_error
    # Whether to print the command before running it (default true).
    attr_accessor :verbose

    def initialize(name = :pupcheck)
      super()
      @name = name
      @paths = []
      @options = []
      @fail_on = nil
      @format = nil
      @fail_on_error = true
      @verbose = true
      yield self if block_given?
      define
    end

    # The arguments given to pupcheck (after the binary).
    def arguments
      args = ['check']
      args += ['--format', format.to_s] if format
      args += ['--fail-on', fail_on.to_s] if fail_on
      args + Array(options).map(&:to_s) + Array(paths).map(&:to_s)
    end

    private

    def define
      desc 'Check Puppet code with pupcheck' unless ::Rake.application.last_description
      task(name) { run }
    end

    def run
      binary = begin
        Pupcheck.binary_path
      rescue BinaryNotFound => e
        abort "pupcheck: #{e.message}"
      end
      warn "pupcheck #{arguments.join(' ')}" if verbose
      # pupcheck's output goes straight to the terminal (colours and all).
      return if system([binary, 'pupcheck'], *arguments)

      status = $?
      message = failure_message(status)
      abort message if fail_on_error || status.nil? || status.exitstatus != 1

      warn message
    end

    def failure_message(status)
      return "pupcheck: could not run #{Pupcheck.binary_path}" if status.nil?

      case status.exitstatus
      when 1 then 'pupcheck found problems (see above)'
      when nil then "pupcheck was stopped (#{status})"
      else "pupcheck failed (exit status #{status.exitstatus}; see above)"
      end
    end
  end
end
