<?php
/**
 * What visitors get: the widget's script in the footer of the pages chosen in the settings, a block
 * and a shortcode that mark a page for the widget (and can show a button that opens the chat).
 *
 * @package SparksPulse
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** The widget on the site. */
final class Sparks_Pulse_Frontend {
	/** Set when the block or the shortcode is on the page being rendered. */
	private static $marked = false;

	/** Set when a button that opens the chat was printed. */
	private static $buttons = false;

	public static function register() {
		add_action( 'init', array( self::class, 'init' ) );
		add_action( 'wp_footer', array( self::class, 'footer' ), 20 );
	}

	public static function init() {
		add_shortcode( 'sparks_pulse', array( self::class, 'shortcode' ) );
		register_block_type(
			SPARKS_PULSE_DIR . 'blocks/widget',
			array( 'render_callback' => array( self::class, 'render_block' ) )
		);
		if ( function_exists( 'wp_set_script_translations' ) ) {
			wp_set_script_translations( 'sparks-pulse-widget-editor-script', 'sparks-pulse', SPARKS_PULSE_DIR . 'languages' );
		}
	}

	/**
	 * `[sparks_pulse]` marks the page; `[sparks_pulse button="Ask us"]` also shows a button that opens the chat.
	 *
	 * @param array|string $atts The shortcode's attributes.
	 */
	public static function shortcode( $atts ) {
		$atts = shortcode_atts( array( 'button' => '' ), is_array( $atts ) ? $atts : array(), 'sparks_pulse' );
		return self::mark( (string) $atts['button'] );
	}

	/**
	 * The block: the same as the shortcode, its button text from the block's settings.
	 *
	 * @param array $attributes The block's attributes.
	 */
	public static function render_block( $attributes ) {
		return self::mark( isset( $attributes['button'] ) ? (string) $attributes['button'] : '' );
	}

	private static function mark( $button ) {
		self::$marked = true;
		$button       = trim( wp_strip_all_tags( $button ) );
		if ( '' === $button || ! Sparks_Pulse_Options::is_connected() ) {
			return '';
		}
		self::$buttons = true;
		return '<button type="button" class="wp-element-button sparks-pulse-open" data-sparks-pulse-open>' . esc_html( $button ) . '</button>';
	}

	/** Whether the widget goes on the page being shown. */
	public static function wanted( array $options ) {
		if ( is_admin() || ! Sparks_Pulse_Options::is_connected( $options ) ) {
			return false;
		}
		if ( 'pages' === $options['display'] ) {
			return is_page() && in_array( (int) get_queried_object_id(), $options['pages'], true );
		}
		if ( 'marked' === $options['display'] ) {
			return self::$marked;
		}
		return true;
	}

	/** Prints `<script src="…/widget.js" data-token="…" async>` (and the buttons' few lines). */
	public static function footer() {
		$options = Sparks_Pulse_Options::get();
		if ( ! self::wanted( $options ) ) {
			return;
		}
		$attributes = array(
			'src'        => $options['script_url'],
			'data-token' => $options['token'],
			'async'      => true,
		);
		if ( 'auto' !== $options['language'] ) {
			$attributes['data-language'] = $options['language'];
		}
		if ( 'default' !== $options['position'] ) {
			$attributes['data-position'] = $options['position'];
		}
		wp_print_script_tag( $attributes );
		if ( self::$buttons ) {
			wp_print_inline_script_tag(
				'document.addEventListener("click",function(e){var b=e.target.closest&&e.target.closest("[data-sparks-pulse-open]");if(b&&window.Sparks){window.Sparks.open();}});'
			);
		}
	}
}
