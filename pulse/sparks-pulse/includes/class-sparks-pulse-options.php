<?php
/**
 * The plugin's one option, `sparks_pulse`: the connection (filled only by a successful connect) and
 * the display choices (filled by the settings form, sanitized here).
 *
 * @package SparksPulse
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** Reads, sanitizes and writes the `sparks_pulse` option. */
final class Sparks_Pulse_Options {
	const NAME = 'sparks_pulse';

	const POSITIONS = array( 'default', 'right', 'left' );
	const LANGUAGES = array( 'auto', 'es', 'en' );
	const DISPLAYS  = array( 'all', 'pages', 'marked' );

	/** The defaults: not connected, shown on every page, the Spark's own position and language. */
	public static function defaults() {
		return array(
			'server'     => '',
			'spark_id'   => '',
			'spark_name' => '',
			'token'      => '',
			'script_url' => '',
			'origin'     => '',
			'position'   => 'default',
			'language'   => 'auto',
			'display'    => 'all',
			'pages'      => array(),
		);
	}

	/** The stored settings, with defaults for anything missing. */
	public static function get() {
		$stored = get_option( self::NAME, array() );
		return array_merge( self::defaults(), is_array( $stored ) ? $stored : array() );
	}

	/** Whether a Spark is connected (a token and the address of its script). */
	public static function is_connected( $options = null ) {
		$options = $options ? $options : self::get();
		return '' !== $options['token'] && '' !== $options['script_url'];
	}

	/**
	 * The settings form's sanitize callback: only the display choices come from the form; the
	 * connection fields are kept as they are (they change only through connect and disconnect).
	 *
	 * @param mixed $input The submitted values.
	 */
	public static function sanitize( $input ) {
		$current = self::get();
		$input   = is_array( $input ) ? $input : array();
		$out     = $current;

		$position        = isset( $input['position'] ) ? sanitize_key( $input['position'] ) : $current['position'];
		$out['position'] = in_array( $position, self::POSITIONS, true ) ? $position : 'default';

		$language        = isset( $input['language'] ) ? sanitize_key( $input['language'] ) : $current['language'];
		$out['language'] = in_array( $language, self::LANGUAGES, true ) ? $language : 'auto';

		$display        = isset( $input['display'] ) ? sanitize_key( $input['display'] ) : $current['display'];
		$out['display'] = in_array( $display, self::DISPLAYS, true ) ? $display : 'all';

		$pages = isset( $input['pages'] ) && is_array( $input['pages'] ) ? $input['pages'] : array();
		$pages = array_values( array_unique( array_filter( array_map( 'absint', $pages ) ) ) );
		// Only pages that exist and are pages.
		$out['pages'] = array_values(
			array_filter(
				$pages,
				static function ( $id ) {
					return 'page' === get_post_type( $id );
				}
			)
		);
		return $out;
	}

	/** Stores what a successful connect returned (values sanitized again: they come from a network answer). */
	public static function save_connection( $server, array $answer ) {
		$options               = self::get();
		$options['server']     = esc_url_raw( $server );
		$options['spark_id']   = sanitize_text_field( (string) ( $answer['sparkId'] ?? '' ) );
		$options['spark_name'] = sanitize_text_field( (string) ( $answer['name'] ?? '' ) );
		$options['token']      = preg_replace( '/[^A-Za-z0-9_.\-]/', '', (string) ( $answer['token'] ?? '' ) );
		$options['script_url'] = esc_url_raw( (string) ( $answer['scriptUrl'] ?? '' ), array( 'http', 'https' ) );
		$options['origin']     = esc_url_raw( (string) ( $answer['origin'] ?? '' ), array( 'http', 'https' ) );
		// Bypass the form's sanitize callback, which keeps the connection fields as they were.
		remove_filter( 'sanitize_option_' . self::NAME, array( self::class, 'sanitize' ) );
		update_option( self::NAME, $options );
	}

	/** Forgets the connection, keeping the display choices. */
	public static function clear_connection() {
		$options = array_merge( self::get(), array_intersect_key( self::defaults(), array_flip( array( 'spark_id', 'spark_name', 'token', 'script_url', 'origin' ) ) ) );
		remove_filter( 'sanitize_option_' . self::NAME, array( self::class, 'sanitize' ) );
		update_option( self::NAME, $options );
	}
}
